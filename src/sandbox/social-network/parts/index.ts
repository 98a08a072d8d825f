import type { SocialPart } from '../part.js';
import { adAccountsPart } from './ad-accounts.js';
import { commentsPart } from './comments.js';
import { commercePart } from './commerce.js';
import { corePart } from './core.js';
import { insightsPart } from './insights.js';
import { leadgenPart } from './leadgen.js';
import { marketingPart } from './marketing.js';
import { marketingAudiencesPart } from './marketing-audiences.js';
import { marketingBoostPart } from './marketing-boost.js';
import { marketingMediaPart } from './marketing-media.js';
import { marketingInsightsPart } from './marketing-insights.js';
import { marketingPixelsPart } from './marketing-pixels.js';
import { marketingTargetingPart } from './marketing-targeting.js';
import { marketingReviewsPart } from './marketing-reviews.js';
import { messengerPart } from './messenger.js';
import { pagesPart } from './pages.js';
import { postsPart } from './posts.js';

/**
 * The social network's parts, in the order their routes are tried: the core first (`GET /me` before any
 * `GET /{id}`), then posts, commerce, comments and pages, whose `/{id}` routes each pass on what is not theirs (comments' `DELETE /{id}`
 * answers every id left). A new part
 * (marketing, commerce, leadgen) is its file and one line here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- what each part keeps differs.
export const SOCIAL_NETWORK_PARTS: ReadonlyArray<SocialPart<any>> = [
  corePart,
  adAccountsPart,
  marketingBoostPart,
  marketingMediaPart,
  marketingAudiencesPart,
  marketingPixelsPart,
  marketingPart,
  marketingInsightsPart,
  marketingTargetingPart,
  marketingReviewsPart,
  postsPart,
  leadgenPart,
  commercePart,
  commentsPart,
  pagesPart,
  insightsPart,
  messengerPart,
];
