import type { AdAudiences } from './ad-audiences.js';
import type { AdBoosts } from './ad-boosts.js';
import type { AdCampaigns } from './ad-campaigns.js';
import type { AdCreatives } from './ad-creatives.js';
import type { AdInsights } from './ad-insights.js';
import type { AdPixels } from './ad-pixels.js';
import type { Ads } from './ads.js';
import type { CalendarEvents } from './calendar.js';
import type { Insights } from './insights.js';
import type { Comments } from './comments.js';
import type { Commerce } from './commerce.js';
import type { Leads } from './leads.js';
import type { ChatappSender, MessageSender, SessionMessaging } from './messaging.js';
import type { ConnectingFlow, SelectingFlow } from './oauth.js';
import type { Publisher } from './publishing.js';
import type { WebhookReceiver } from './webhooks.js';

/**
 * What a platform may be able to do beyond the core, each a small interface in a file of its own, under the
 * name an adapter gives it (`adapter.publisher`). A new capability is its file and one line here; the platforms
 * that have it add the member, and `Platforms.capability(id, name)` finds it.
 */
export interface Capabilities {
  /** Connecting accounts by the OAuth authorization-code flow. */
  oauth: ConnectingFlow | SelectingFlow;
  /** Posts: rules, publishing and (where allowed) deletion and history. A platform without it refuses posts at validation. */
  publisher: Publisher;
  /** Receiving the platform's webhooks. */
  webhooks: WebhookReceiver;
  ads: Ads;
  /** Campaigns, ad sets and ads of a connected ad account: create, list, read, change, delete. */
  adCampaigns: AdCampaigns;
  /** Standalone ad creatives and the ad account's media libraries they use. */
  adCreatives: AdCreatives;
  /** Whether a post may be boosted (the boost's objects are the tree's and the creatives'). */
  adBoosts: AdBoosts;
  /** Custom audiences (customer lists, lookalikes, pixel rules) and the people of customer lists. */
  adAudiences: AdAudiences;
  /** Ad insights (live and as background reports) and the targeting searches: locations, interests, behaviours, reach. */
  adInsights: AdInsights;
  /** Pixels, their server events (Conversions API / Events API) and custom conversions. */
  adPixels: AdPixels;
  /** Events of the calendars a calendar account reaches. */
  calendarEvents: CalendarEvents;
  /** Account and post figures (analytics), read by a metric map kept as data. */
  insights: Insights;
  /** Lead forms and their leads: a page's, or an advertiser's (ad accounts). */
  leads: Leads;
  /** Comments on the account's posts: list, reply, hide, delete. */
  comments: Comments;
  /** Product catalogs, their products (one by one and in batches), product sets and shops. */
  commerce: Commerce;
  /** Direct messages from the account: text, files, private replies to comments. */
  messaging: MessageSender;
  /** The cloud chat API's own messages: templates, buttons, reactions. */
  chatapp: ChatappSender;
  /** Direct messages sent by the worker process that holds the account's live session (qrchat). */
  sessionMessaging: SessionMessaging;
}

export type CapabilityName = keyof Capabilities;
