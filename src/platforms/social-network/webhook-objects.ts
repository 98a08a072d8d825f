import type { GraphObjectParser } from '../meta/graph-webhook.js';
import { adAccountChanges } from './ad-account-webhooks.js';
import { pageFeed } from './feed-webhooks.js';
import { pageLeadgen } from './leadgen-webhooks.js';
import { pageMessenger } from './messenger-webhooks.js';
import { permissionChanges } from './permissions-webhooks.js';

/**
 * The Graph objects (and fields) whose webhooks the app reads, each by a parser of its own. A new one (an ad
 * account's issues, a page's lead forms) is its file, declaring the kinds it reads (IncomingEventKinds), and one
 * line here.
 */
export const GRAPH_OBJECTS: readonly GraphObjectParser[] = [pageMessenger, pageFeed, pageLeadgen, permissionChanges, adAccountChanges];
