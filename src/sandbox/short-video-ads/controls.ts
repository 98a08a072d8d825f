import { closed, type ControlBodies, integer, oneOf, text } from '../control-schema.js';
import { DEMO_ADVERTISERS } from './demo.js';

const ADVERTISER = DEMO_ADVERTISERS[0]!.advertiser_id;
const advertiserId = text(`the advertiser (${ADVERTISER}, the demo one, or one made with /advertisers)`);
const webhookUrl = { type: 'string', pattern: '^https?://', description: "the app's callback URL set in the developer portal" };
const signing = oneOf(['valid', 'mismatch', 'stale', 'future'], 'how the event is signed (valid by default)');

/** The bodies of the Business API's people's controls (Spark ads' creators and linked accounts, pixels' lost answers). */
export const SHORT_VIDEO_ADS_CONTROLS: ControlBodies = {
  'POST /_sandbox/short_video_ads/spark-codes': closed(
    {
      itemId: text('the TikTok post the code authorises (a new post when absent)'),
      displayName: text('the creator, as the ad shows them'),
      days: integer('how long the code is valid (30 by default)', 1),
    },
    [],
    { itemId: '7311000000000009001' },
  ),
  'POST /_sandbox/short_video_ads/spark-codes/revoke': closed({ authCode: text('the code the creator withdraws') }, ['authCode'], {
    authCode: '#q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6',
  }),
  'POST /_sandbox/short_video_ads/linked-accounts': closed(
    {
      advertiserId: text('the advertiser the TikTok account is linked to'),
      displayName: text('the TikTok account'),
      posts: { type: 'object', additionalProperties: { type: 'boolean' }, description: 'its posts by id: switched on for ads or not' },
    },
    ['advertiserId'],
    { advertiserId: ADVERTISER, posts: { '7311000000000009001': true } },
  ),
  'POST /_sandbox/short_video_ads/pixel-lost-answer': closed(
    { adAccountId: text('the advertiser whose next create is made, then its answer lost'), edge: oneOf(['pixel', 'custom_conversion']) },
    ['adAccountId', 'edge'],
    { adAccountId: ADVERTISER, edge: 'pixel' },
  ),
  'POST /_sandbox/short_video_ads/advertisers': closed(
    {
      name: text('its name'),
      currency: { type: 'string', pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 (TikTok writes it in capitals)' },
      timezone: text('its time zone, as TikTok names it'),
      display_timezone: text('an IANA time zone'),
      status: {
        type: 'string',
        pattern: '^STATUS_[A-Z_]+$',
        description: "TikTok's advertiser status (STATUS_ENABLE, STATUS_DISABLE, STATUS_LIMIT, …)",
      },
      company: text('the company'),
      country: { type: 'string', pattern: '^[A-Z]{2}$' },
      role: oneOf(['ROLE_ADVERTISER', 'ROLE_CHILD_ADVERTISER']),
    },
    [],
    { name: 'Acme Coffee EU', currency: 'EUR', status: 'STATUS_ENABLE' },
  ),
  'POST /_sandbox/short_video_ads/revoke-access': closed(
    {
      advertiserIds: { type: 'array', items: { type: 'string' }, description: 'the advertisers revoked (every one when absent)' },
      webhookUrl,
      reason: integer('the authorization.removed reason'),
    },
    [],
    { advertiserIds: [ADVERTISER] },
  ),
  'POST /_sandbox/short_video_ads/events': closed(
    { webhookUrl, event: text('the event, e.g. lead.submitted'), content: { type: 'object' }, signing },
    ['webhookUrl', 'event'],
    { webhookUrl: 'http://localhost:8080/webhooks/short_video_ads', event: 'ad.status_changed', content: {} },
  ),
  'POST /_sandbox/short_video_ads/tree': closed({ advertiserId }, ['advertiserId'], { advertiserId: ADVERTISER }),
  'POST /_sandbox/short_video_ads/fail-next': closed(
    {
      code: integer("TikTok's code (50002 by default)", 1),
      message: text('its message'),
      path: text('only the next call to this path, e.g. /campaign/create/'),
    },
    [],
    { code: 40100, message: 'Too many requests.' },
  ),
  'POST /_sandbox/short_video_ads/lose-next': closed({ path: text('only the next call to this path') }, [], { path: '/ad/create/' }),
  'POST /_sandbox/short_video_ads/ads/:id/review': closed({ decision: oneOf(['approve', 'deny']) }, ['decision'], { decision: 'approve' }),
  'POST /_sandbox/short_video_ads/instant-forms': closed(
    {
      advertiserId,
      title: text('its title'),
      status: oneOf(['PUBLISHED', 'EDITED', 'ARCHIVED']),
      locale: text('e.g. en_US'),
      privacy_policy_url: { type: 'string', pattern: '^https?://' },
      fields: {
        type: 'array',
        items: closed(
          {
            field_type: text('NAME, EMAIL, PHONE_NUMBER, …'),
            field_name: text('its name'),
            label: text('its label'),
            options: { type: 'array', items: { type: 'string' } },
          },
          ['field_type', 'field_name'],
          { field_type: 'EMAIL', field_name: 'email' },
        ),
      },
    },
    ['advertiserId'],
    { advertiserId: ADVERTISER, title: 'Wholesale enquiries' },
  ),
  'POST /_sandbox/short_video_ads/instant-leads': closed(
    {
      formId: text('the instant form sent'),
      adId: text('the ad it was sent from'),
      fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'the answers by field name' },
      webhookUrl,
    },
    ['formId'],
    { formId: '…', fields: { name: 'Lena Fischer', email: 'lena@acme.example' } },
  ),
  'POST /_sandbox/short_video_ads/lead-access': closed(
    { advertiserId, allowed: { type: 'boolean', description: 'false: reading its leads is refused' } },
    ['advertiserId', 'allowed'],
    { advertiserId: ADVERTISER, allowed: false },
  ),
  'POST /_sandbox/short_video_ads/instant-leads/announce': closed({ leadId: text('the lead'), webhookUrl }, ['leadId', 'webhookUrl'], {
    leadId: '…',
    webhookUrl: 'http://localhost:8080/webhooks/short_video_ads',
  }),
  'POST /_sandbox/short_video_ads/audience-populating': closed(
    { adAccountId: advertiserId, seconds: { type: ['integer', 'null'], minimum: 0, description: 'null: until a person finishes each' } },
    ['adAccountId'],
    { adAccountId: ADVERTISER, seconds: null },
  ),
  'POST /_sandbox/short_video_ads/audiences/:id/finish': closed({ status: oneOf(['ready', 'error']) }, [], { status: 'ready' }),
};
