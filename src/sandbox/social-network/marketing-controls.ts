import { closed, type ControlBodies, integer, NO_BODY, oneOf, tagged, text } from '../control-schema.js';
import { DEMO_AD_ACCOUNTS, DEMO_PAGES, SANDBOX_APP } from './demo.js';
import { OPT_IN } from './parts/marketing-insights.js';

const AD_ACCOUNT = DEMO_AD_ACCOUNTS[0]!.id;
const PAGE = DEMO_PAGES[0]!.id;
const adAccountId = text(`the ad account (${AD_ACCOUNT}, the demo one, or one of a person made with /users)`);
const pageId = text(`the page (${PAGE}, a demo one, or one of a person made with /users)`);
const seconds = { type: ['integer', 'null'], minimum: 0, description: 'null: until a person finishes each' };
const finish = closed({ status: oneOf(['ready', 'error'], 'how it ends (ready by default)') }, [], { status: 'ready' });
const boostEdge = oneOf(['campaigns', 'adsets', 'adcreatives', 'ads'], 'the edge whose next creation meets it');

/** The bodies of the Marketing API's people's controls: boosting, ad media, audiences, pixels, ad accounts, reviews. */
export const SOCIAL_NETWORK_MARKETING_CONTROLS: ControlBodies = {
  'POST /_sandbox/social_network/boost-eligibility': closed(
    {
      postId: text("the page post's id"),
      eligible: { type: 'boolean', description: 'true: the platform promotes it again (false by default)' },
      promotionStatus: text('its promotion_status while it is not promoted (ineligible by default), e.g. rejected'),
    },
    ['postId'],
    { postId: `${PAGE}_…`, eligible: false, promotionStatus: 'rejected' },
  ),
  'POST /_sandbox/social_network/boost-faults': closed(
    {
      adAccountId,
      faults: {
        type: 'array',
        minItems: 1,
        description: 'each taken once, by the next creation on its edge',
        items: tagged('kind', [
          closed(
            {
              kind: oneOf(['refuse'], 'the creation is refused'),
              edge: boostEdge,
              subcode: integer('its error_subcode (1487390 by default)', 1),
              message: text('its error_user_msg'),
            },
            ['kind', 'edge'],
            { kind: 'refuse', edge: 'ads', subcode: 1487390 },
          ),
          closed({ kind: oneOf(['revoke_token'], "the person's token is revoked there"), edge: boostEdge }, ['kind', 'edge'], {
            kind: 'revoke_token',
            edge: 'adsets',
          }),
        ]),
      },
    },
    ['adAccountId', 'faults'],
    { adAccountId: AD_ACCOUNT, faults: [{ kind: 'refuse', edge: 'ads' }] },
  ),
  'POST /_sandbox/social_network/ad-video-processing': closed(
    {
      adAccountId,
      seconds: { ...seconds, description: "how long the ad account's next videos process; null (the default): until finished" },
    },
    ['adAccountId'],
    { adAccountId: AD_ACCOUNT, seconds: 5 },
  ),
  'POST /_sandbox/social_network/ad-videos/:id/finish': finish,
  'POST /_sandbox/social_network/ad-media-lost-answer': closed(
    { adAccountId, edge: oneOf(['adimages', 'advideos'], 'the library whose next upload is made, then its answer lost') },
    ['adAccountId', 'edge'],
    { adAccountId: AD_ACCOUNT, edge: 'advideos' },
  ),
  'POST /_sandbox/social_network/audience-terms': closed(
    { adAccountId, accepted: { type: 'boolean', description: 'false: the custom audience terms are not accepted (lists are refused)' } },
    ['adAccountId', 'accepted'],
    { adAccountId: AD_ACCOUNT, accepted: false },
  ),
  'POST /_sandbox/social_network/audience-populating': closed(
    {
      adAccountId,
      seconds: { ...seconds, description: "how long the ad account's next audiences populate; null (the default): until finished" },
    },
    ['adAccountId'],
    { adAccountId: AD_ACCOUNT, seconds: null },
  ),
  'POST /_sandbox/social_network/audiences/:id/finish': finish,
  'POST /_sandbox/social_network/pixel-lost-answer': closed(
    { adAccountId, edge: oneOf(['adspixels', 'customconversions'], 'the edge whose next create is made, then its answer lost') },
    ['adAccountId', 'edge'],
    { adAccountId: AD_ACCOUNT, edge: 'adspixels' },
  ),
  'POST /_sandbox/social_network/custom-conversions/:id/archive': NO_BODY,
  'POST /_sandbox/social_network/ad-account-settings': closed(
    {
      adAccountId,
      currency: { type: 'string', pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 (the Graph writes it in capitals)' },
      status: {
        enum: [1, 2, 3, 7, 8, 9, 100, 101],
        description:
          'its account_status: 1 active, 2 disabled, 3 unsettled, 7 pending review, 8 pending settlement, 9 in grace period, 100 pending closure, 101 closed',
      },
      defaultDsaBeneficiary: { type: ['string', 'null'], minLength: 1, description: 'who benefits from its ads by default (the DSA)' },
      defaultDsaPayor: { type: ['string', 'null'], minLength: 1, description: 'who pays for its ads by default (the DSA)' },
    },
    ['adAccountId'],
    { adAccountId: AD_ACCOUNT, status: 2 },
  ),
  'POST /_sandbox/social_network/marketing-faults': closed(
    {
      adAccountId,
      faults: {
        type: 'array',
        minItems: 1,
        description: 'each taken once, by the next create on its edge (any edge when absent)',
        items: closed(
          {
            kind: oneOf(['lose_answer'], 'made, then the connection drops before the answer'),
            edge: oneOf(['campaigns', 'adsets', 'ads', 'adcreatives', 'copies']),
          },
          ['kind'],
          { kind: 'lose_answer', edge: 'campaigns' },
        ),
      },
    },
    ['adAccountId', 'faults'],
    { adAccountId: AD_ACCOUNT, faults: [{ kind: 'lose_answer', edge: 'campaigns' }] },
  ),
  'POST /_sandbox/social_network/ad-accounts/:id/breakdowns': closed(
    { breakdown: oneOf(OPT_IN, 'a breakdown the ad account must enable before it reports by it') },
    ['breakdown'],
    { breakdown: 'impression_device' },
  ),
  'POST /_sandbox/social_network/ad-accounts/:id/insights-limit': closed(
    { maxRows: integer('the most rows a synchronous read answers (20 000, the default, when absent)', 1) },
    [],
    { maxRows: 10 },
  ),
  'POST /_sandbox/social_network/ads/:id/review': closed(
    { decision: oneOf(['approve', 'disapprove']), feedback: text("the reviewer's words on a disapproval") },
    ['decision'],
    { decision: 'disapprove', feedback: 'The ad promotes a prohibited product.' },
  ),
  'POST /_sandbox/social_network/ad-objects/:id/issue': closed(
    {
      error_code: integer('the error code (1487390 by default)', 1),
      error_summary: text('its summary (a missing payment method by default)'),
      error_message: text('its message'),
    },
    [],
    { error_summary: 'Ad account has no payment method' },
  ),
  'POST /_sandbox/social_network/ad-recommendations': closed(
    {
      adAccountId,
      objectIds: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'the campaigns, ad sets or ads it is about' },
      type: { type: 'string', pattern: '^[A-Z_]+$', description: 'its recommendation_type (AUDIENCE_EXPANSION by default)' },
      message: text('its recommendation_message'),
      stage: { type: 'string', pattern: '^[A-Z_]+$', description: 'its recommendation_stage (CREATED by default)' },
    },
    ['adAccountId'],
    { adAccountId: AD_ACCOUNT, objectIds: ['…'], type: 'AUDIENCE_EXPANSION' },
  ),
  'POST /_sandbox/social_network/ad-webhooks/release': closed(
    {
      adAccountId,
      together: { type: 'boolean', description: 'true: every held change in one webhook, newest first (only the newest by default)' },
    },
    ['adAccountId'],
    { adAccountId: AD_ACCOUNT, together: true },
  ),
  'POST /_sandbox/social_network/ad-webhook-faults': closed(
    {
      adAccountId,
      faults: {
        type: 'array',
        minItems: 1,
        description: "what happens to the ad account's next ad_account webhooks",
        items: tagged('kind', [
          closed({ kind: oneOf(['duplicate_webhooks'], "the next change's webhooks are each sent twice") }, ['kind'], {
            kind: 'duplicate_webhooks',
          }),
          closed(
            { kind: oneOf(['hold_webhooks'], 'the next changes are held until ad-webhooks/release'), count: integer('how many', 1) },
            ['kind', 'count'],
            { kind: 'hold_webhooks', count: 2 },
          ),
        ]),
      },
    },
    ['adAccountId', 'faults'],
    { adAccountId: AD_ACCOUNT, faults: [{ kind: 'hold_webhooks', count: 2 }] },
  ),
};

/** The bodies of lead ads' people's controls: pages' forms, people who send them, the Leads Access Manager. */
export const SOCIAL_NETWORK_LEAD_CONTROLS: ControlBodies = {
  'POST /_sandbox/social_network/lead-forms': closed(
    {
      pageId,
      name: text('its name'),
      status: oneOf(['ACTIVE', 'ARCHIVED', 'DRAFT'], 'ACTIVE by default'),
      locale: text('e.g. en_US (the default)'),
      questions: {
        type: 'array',
        description: 'its questions, any type the platform has (one EMAIL question by default)',
        items: closed(
          {
            type: text('FULL_NAME, EMAIL, PHONE, CUSTOM, …'),
            key: text('the name its answer comes under'),
            label: text('its label'),
            options: {
              type: 'array',
              items: closed({ key: text('the answer'), value: text('as the person sees it') }, ['key', 'value'], {
                key: 'cafe',
                value: 'Café',
              }),
            },
          },
          ['type', 'key'],
          { type: 'EMAIL', key: 'email' },
        ),
      },
      privacy_policy: closed({ url: { type: 'string', pattern: '^https?://' }, link_text: text('the link as shown') }, ['url'], {
        url: 'https://acme.example/privacy',
      }),
    },
    ['pageId'],
    {
      pageId: PAGE,
      name: 'Wholesale enquiries',
      questions: [
        { type: 'FULL_NAME', key: 'full_name' },
        { type: 'EMAIL', key: 'email' },
      ],
    },
  ),
  'POST /_sandbox/social_network/leads': closed(
    {
      formId: text('the form sent'),
      fields: {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'string' } },
        description: "the answers by question key (made up from the form's questions when absent)",
      },
      adId: text('the ad it was sent from (on the page when absent)'),
      platform: oneOf(['fb', 'ig'], 'where the ad ran (fb by default)'),
      daysAgo: integer('how many days ago it was sent (no leadgen webhook for a lead in the past)'),
    },
    ['formId'],
    { formId: '…', fields: { full_name: ['Lena Fischer'], email: ['lena@example.com'] } },
  ),
  'POST /_sandbox/social_network/lead-access': closed(
    {
      pageId,
      appId: text(`the app (${SANDBOX_APP.id}, the sandbox's own, when left out)`),
      allowed: { type: 'boolean', description: "false: the page's Leads Access Manager leaves the app out" },
    },
    ['pageId', 'allowed'],
    { pageId: PAGE, allowed: false },
  ),
  'POST /_sandbox/social_network/lead-duplicates': closed(
    { pageId, times: integer("how many more times each of the page's next leads' webhooks is sent (1 by default)", 1) },
    ['pageId'],
    { pageId: PAGE, times: 2 },
  ),
};

/** The bodies of catalogs' people's controls: pages' owners, the commerce manager's work, faults. */
export const SOCIAL_NETWORK_COMMERCE_CONTROLS: ControlBodies = {
  'POST /_sandbox/social_network/commerce/page-owner': closed(
    {
      pageId,
      business: { type: 'boolean', description: 'false: no business owns the page (true by default)' },
      verified: { type: 'boolean', description: 'false: its business is not verified (true by default)' },
    },
    ['pageId'],
    { pageId: PAGE, verified: false },
  ),
  'POST /_sandbox/social_network/commerce/settings': closed(
    {
      processMs: integer("how long a batch's processing takes (150 at first)"),
      reviewMs: integer("how long a product's review takes after a change (300 at first)"),
      stuckBatches: integer('how many of the next batches never finish'),
      loseNextBatchAnswer: { type: 'boolean', description: 'true: the next batch is taken, its answer lost' },
      loseNextAnswerOf: {
        enum: ['deleteCatalog', 'updateProduct', null],
        description: 'the next call of this kind is done, its answer lost (null: none)',
      },
    },
    [],
    { processMs: 60000 },
  ),
  'POST /_sandbox/social_network/commerce/shops': closed(
    {
      pageId,
      name: text('its name'),
      status: text('its review_status (active by default; draft, pending, rejected, disabled, …)'),
      catalogId: { type: ['string', 'null'], minLength: 1, description: 'the catalog it sells from (none by default)' },
    },
    ['pageId', 'name'],
    { pageId: PAGE, name: 'Acme Coffee', status: 'active' },
  ),
  'POST /_sandbox/social_network/commerce/catalogs/:id/products': closed(
    {
      products: {
        type: 'array',
        minItems: 1,
        items: { type: 'object', description: "a product in the feed's names: id, title, price as 9.90 EUR, …" },
        description: 'the products added by hand',
      },
    },
    ['products'],
    {
      products: [
        {
          id: 'HAND-1',
          title: 'Filter blend',
          price: '9.90 EUR',
          availability: 'in stock',
          link: 'https://acme.example/filter-blend',
          image_link: 'https://acme.example/filter-blend.jpg',
        },
      ],
    },
  ),
  'POST /_sandbox/social_network/commerce/catalogs/:id/delete': NO_BODY,
  'POST /_sandbox/social_network/commerce/forget-handles': NO_BODY,
};
