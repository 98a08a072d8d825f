import { closed, type ControlBodies, type ControlSchema, integer, NO_BODY, oneOf, strictControl, tagged, text } from '../control-schema.js';
import { DEMO_PAGES, DEMO_USER, SANDBOX_APP } from './demo.js';
import { DEFAULT_COMMENTER } from './feed.js';
import { PAGE_METRICS, POST_METRICS } from './parts/insights.js';

const PAGE = DEMO_PAGES[0]!.id;
const PSID = DEFAULT_COMMENTER.id;
const person = {
  ...closed({ id: text('their app-scoped id'), name: text('their name') }, ['id', 'name'], { id: '7300000000000001', name: 'Nora' }),
  description: `who comments (${DEFAULT_COMMENTER.name} when left out)`,
};
const pageId = text(`the page (${PAGE}, the demo page, or one made with /users)`);
const userId = text(`the person (${DEMO_USER.id}, the demo person, or one made with /users)`);
const appId = text(`the app (${SANDBOX_APP.id}, the sandbox's own, when left out)`);
const psid = (description: string) => ({ type: 'string', pattern: '^[0-9]+$', description: `${description}: their page-scoped id (PSID)` });
const faults = (variants: ControlSchema[]) => ({
  type: 'array',
  minItems: 1,
  items: tagged('kind', variants),
  description: 'taken in order, each once',
});
const edge = oneOf(['feed', 'photos', 'videos'], 'only the calls to this edge meet the fault (else any of the three)');

/** The bodies of the social network's people's controls. */
export const SOCIAL_NETWORK_CONTROLS: ControlBodies = {
  'POST /_sandbox/social_network/users': closed(
    {
      name: text('their name (their pages and ad accounts are named after it)'),
      pages: integer('how many pages they manage (2 when left out)'),
      adAccounts: integer('how many ad accounts they manage (1 when left out)'),
      declineScopes: { type: 'array', items: text('a permission'), description: 'the permissions they untick in the login dialog' },
    },
    [],
    { name: 'Pat Baker', pages: 1, adAccounts: 0 },
  ),
  'POST /_sandbox/social_network/login': closed(
    { userId: text('the person signed in to the browser that opens the login dialog') },
    ['userId'],
    {
      userId: DEMO_USER.id,
    },
  ),
  'POST /_sandbox/social_network/remove-app': closed({ userId, appId }, ['userId'], { userId: DEMO_USER.id }),
  'POST /_sandbox/social_network/revoke-permission': closed(
    {
      userId,
      appId,
      permission: text('the permission they take back'),
      targetIds: { type: 'array', minItems: 1, items: text('a page or ad account id'), description: 'only for these pages or ad accounts' },
    },
    ['userId', 'permission'],
    { userId: DEMO_USER.id, permission: 'pages_messaging' },
  ),
  'POST /_sandbox/social_network/revoke': closed(
    { accessToken: text('the token that stops working (190, subcode 460)') },
    ['accessToken'],
    {
      accessToken: 'EAASandbox…',
    },
  ),
  'POST /_sandbox/social_network/app': closed(
    {
      appId,
      deauthCallbackUrl: {
        type: ['string', 'null'],
        pattern: '^https?://',
        description: "the app dashboard's deauthorize callback URL (null: none; the permissions webhook's then)",
      },
    },
    [],
    { deauthCallbackUrl: 'https://socialgate.example/webhooks/social_network' },
  ),
  'POST /_sandbox/social_network/fail-next': closed(
    {
      status: { ...integer('the HTTP status (401 for code 190, else 400, when left out)', 400), maximum: 599 },
      code: integer("the Graph error's code (4: the app's rate limit, 190: the token, 200: a permission …)", 1),
      subcode: integer('its error_subcode (463: the token expired …)', 1),
      message: text("its message (Meta's generic one when left out)"),
      headers: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'headers sent along (X-Business-Use-Case-Usage, Retry-After)',
      },
    },
    ['code'],
    { code: 4, message: '(#4) Application request limit reached', headers: { 'Retry-After': '30' } },
  ),
  'POST /_sandbox/social_network/page-posts': closed(
    {
      pageId: text('the page that posts in its own app'),
      message: { type: 'string', description: "the post's text" },
      reactions: integer('reactions people gave it since'),
      shares: integer('times people shared it since'),
      comments: { type: 'array', items: { type: 'string' }, description: "people's comments on it since" },
    },
    ['pageId'],
    { pageId: PAGE, message: 'The autumn menu is out.' },
  ),
  'POST /_sandbox/social_network/post-faults': closed(
    {
      pageId,
      faults: faults([
        closed(
          { kind: { const: 'rate_limited' }, minutes: integer('estimated_time_to_regain_access in the usage header'), edge },
          ['kind'],
          { kind: 'rate_limited', minutes: 7 },
        ),
        closed({ kind: oneOf(['duplicate', 'policy', 'server_error', 'hang_after_create']), edge }, ['kind'], { kind: 'policy' }),
        closed({ kind: { const: 'video_processing_error' } }, ['kind'], { kind: 'video_processing_error' }),
        closed({ kind: { const: 'comment_fails' }, code: integer("the Graph error's code (1 when left out)", 1) }, ['kind'], {
          kind: 'comment_fails',
          code: 368,
        }),
      ]),
    },
    ['pageId', 'faults'],
    { pageId: PAGE, faults: [{ kind: 'rate_limited', edge: 'feed', minutes: 7 }] },
  ),
  'POST /_sandbox/social_network/comments': closed(
    {
      postId: text("the page post's id"),
      parentId: text('the comment it answers'),
      text: text(`what they write ("Nice!" when left out)`),
      from: person,
    },
    ['postId'],
    { postId: `${PAGE}_…`, text: 'What is the price?', from: { id: '7300000000000001', name: 'Nora' } },
  ),
  'POST /_sandbox/social_network/comments/:commentId/edit': closed({ text: text('the comment as the person rewrote it') }, ['text'], {
    text: 'What is the price of the large one?',
  }),
  'POST /_sandbox/social_network/comments/:commentId/remove': NO_BODY,
  'POST /_sandbox/social_network/comment-faults': closed(
    {
      pageId,
      faults: faults([
        closed({ kind: oneOf(['lost_answer', 'duplicate_webhooks']) }, ['kind'], { kind: 'lost_answer' }),
        closed(
          { kind: { const: 'hold_webhooks' }, count: integer('how many webhooks are held, then sent newest first', 2) },
          ['kind', 'count'],
          {
            kind: 'hold_webhooks',
            count: 2,
          },
        ),
      ]),
    },
    ['pageId', 'faults'],
    { pageId: PAGE, faults: [{ kind: 'duplicate_webhooks' }] },
  ),
  'POST /_sandbox/social_network/remove-metric': closed(
    { metric: oneOf([...Object.keys(PAGE_METRICS), ...POST_METRICS], 'the insights metric the Graph stops giving') },
    ['metric'],
    { metric: 'page_views_total' },
  ),
  'POST /_sandbox/social_network/messages': closed(
    { pageId, from: psid(`who writes (${PSID} when left out)`), text: text('what they write') },
    ['pageId'],
    { pageId: PAGE, from: PSID, text: 'Do you ship to Austria?' },
  ),
  'POST /_sandbox/social_network/messenger/attachments': closed(
    {
      pageId,
      from: psid('who sends them'),
      text: text('a text sent along'),
      attachments: {
        type: 'array',
        minItems: 1,
        items: closed(
          {
            type: oneOf(['image', 'video', 'audio', 'file', 'location', 'fallback'], 'the kind of attachment'),
            payload: closed(
              {
                url: { type: 'string', pattern: '^https?://', description: 'its CDN URL' },
                sticker_id: integer('a sticker (an image with this id)', 1),
                coordinates: closed({ lat: { type: 'number' }, long: { type: 'number' } }, ['lat', 'long'], { lat: 52.5, long: 13.4 }),
              },
              [],
              { url: 'https://cdn.example/photo.jpg' },
            ),
          },
          ['type', 'payload'],
          { type: 'image', payload: { url: 'https://cdn.example/photo.jpg' } },
        ),
        description: 'as Messenger carries them',
      },
    },
    ['pageId', 'from', 'attachments'],
    { pageId: PAGE, from: PSID, text: 'This one', attachments: [{ type: 'image', payload: { url: 'https://cdn.example/photo.jpg' } }] },
  ),
  'POST /_sandbox/social_network/messenger/age': closed(
    {
      pageId,
      psid: psid('who wrote to the page'),
      hours: { type: 'number', minimum: 0, description: 'how much older their last message gets' },
    },
    ['pageId', 'psid', 'hours'],
    { pageId: PAGE, psid: PSID, hours: 25 },
  ),
  'POST /_sandbox/social_network/messenger/comments': closed(
    {
      pageId,
      psid: psid('who comments on one of its posts'),
      ageDays: { type: 'number', minimum: 0, description: 'how old the comment is (0 when left out)' },
    },
    ['pageId', 'psid'],
    { pageId: PAGE, psid: PSID, ageDays: 8 },
  ),
  'POST /_sandbox/social_network/messenger/lose-next': NO_BODY,
  'POST /_sandbox/social_network/messenger/receipts': closed(
    {
      pageId,
      psid: psid("whose app reports the page's messages"),
      kind: oneOf(['delivery', 'read'], 'delivered (all their mids; when left out) or read (a watermark)'),
    },
    ['pageId', 'psid'],
    { pageId: PAGE, psid: PSID, kind: 'read' },
  ),
  ...strictControl('social_network'),
};
