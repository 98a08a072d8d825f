import { closed, type ControlBodies, integer, oneOf, text } from '../control-schema.js';
import { DEMO_ADVERTISERS } from './demo.js';

const ADVERTISER = DEMO_ADVERTISERS[0]!.advertiser_id;

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
};
