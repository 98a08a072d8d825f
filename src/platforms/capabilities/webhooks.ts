import type { MessageKind } from './messaging.js';
import type { AdapterAccount, PlatformId } from '../types.js';
import type { CommentActions } from './comments.js';

/**
 * Receiving a platform's webhooks (`/webhooks/:platform`): its handshake, its signature on the raw body, and the
 * events its payload carries, which the service turns into its own records and events afterwards.
 */

/** A message a person sent to a connected account, as read from a platform webhook. */
export interface IncomingMessage {
  kind: 'message';
  /** The connected account it was sent to: ours when the source names it, else the platform's id of it. */
  accountId: string | null;
  platformAccountId: string | null;
  /** The conversation on the platform (a chat id, a phone number, a PSID). */
  platformConversationId: string;
  from: string;
  fromName: string | null;
  fromUsername?: string | null;
  /** The sender's phone number, on chat apps that identify people by it. */
  fromPhone?: string | null;
  /** The caption of a media message, or "" when it has none. */
  text: string;
  platformMessageId: string;
  sentAt: Date;
  /** `text` unless the message carries media, a sticker or a place. */
  type?: MessageKind;
  attachments?: IncomingAttachment[];
}

/**
 * What an incoming message carries besides its text. `url` where the platform gives a public one (Messenger's
 * CDN, a map link for a place); else `ref`, the platform's id of the file, which only the account's credentials
 * can download (the service proxies it).
 */
export interface IncomingAttachment {
  type: 'image' | 'video' | 'audio' | 'document' | 'sticker' | 'location' | 'other';
  url: string | null;
  ref: string | null;
  mimeType: string | null;
  fileName: string | null;
  size: number | null;
}

/** The platform says the app lost its permission for an account or an ad account (deauthorised, revoked). */
export interface PermissionRevoked {
  kind: 'permission_revoked';
  accountId: string | null;
  platformAccountId: string | null;
  /** The ad account at the platform whose grant was taken back, where the platform names one (an advertiser). */
  platformAdAccountId?: string | null;
  /**
   * The person who removed the app or a permission, where the platform names only them: every account (and ad
   * account) connected through their grant is affected, or only those of `platformAccountId` when it is set.
   */
  platformUserId?: string | null;
  /** `token_revoked` when the whole grant is gone (the app was removed); else a permission was taken back. */
  reason?: 'token_revoked' | 'permission_missing';
}

/**
 * A post the platform made public some time after it published it (a review passed): its public id replaces the
 * provisional one the target was recorded under, so that history and insights find it.
 */
export interface PostMadePublic {
  kind: 'post_public';
  platformAccountId: string;
  /** The id the target was recorded under (a publish id). */
  provisionalId: string;
  platformPostId: string;
  /** The public link, from what the target kept when it published. */
  urlFor(state: Record<string, unknown>): string | null;
}

/**
 * A receipt for messages the account sent: `sent` (the platform accepted it), `delivered`, `read`, or `failed`
 * with the platform's reason (the chat app's failures may arrive after it answered 200). Named by the platform's
 * message ids, or — Messenger's watermarks — as every message sent to the person up to a time.
 */
export interface MessageStatusUpdate {
  kind: 'message_status';
  accountId: string | null;
  platformAccountId: string | null;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  /** When the platform says the status was reached. */
  at: Date;
  platformMessageIds: string[];
  /** Instead of ids: every message to this person (`platformConversationId`) sent at or before `upTo`. */
  watermark?: { platformConversationId: string; upTo: Date };
  error?: { code: string; message: string } | null;
}

/**
 * A change to a comment on a connected account's post, as read from a platform webhook (a page's `feed`, Threads'
 * `replies`). Platforms deliver changes late, twice and out of order: `at` orders them, whatever order they arrive
 * in. The account's own comments arrive too (`from.id` is then the account's platform id).
 */
export interface IncomingComment {
  kind: 'comment';
  /** `added`: a new comment; `edited`: its text changed; `removed`: deleted (final); `hidden`/`unhidden`: by the account. */
  change: 'added' | 'edited' | 'removed' | 'hidden' | 'unhidden';
  accountId: string | null;
  platformAccountId: string | null;
  platformPostId: string;
  platformCommentId: string;
  /** The comment it answers; null for a comment on the post itself. */
  parentId: string | null;
  /** Who wrote it, where the change says. */
  from: { id: string; name: string | null; username: string | null } | null;
  /** The text, where the change carries it (`added`, `edited`). */
  text: string | null;
  /** When the comment was written, where the change says. */
  createdAt: Date | null;
  /** When the change happened at the platform. */
  at: Date;
  /** What the account may do to it, where the platform's rules tell from the change (`added`, `edited`). */
  can: CommentActions | null;
}

/**
 * Every kind of incoming event, by its `kind`. Open: the kinds every platform shares are listed here, and a
 * kind of one object or area (an ad account's issues, a lead) is added from the file that reads or handles it,
 * by declaration merging:
 *
 *     declare module '<path>/platforms/capabilities/webhooks.js' {
 *       interface IncomingEventKinds { lead: IncomingLead }
 *     }
 *
 * src/modules/index.ts then fails the typecheck until some area handles the new kind.
 */
export interface IncomingEventKinds {
  message: IncomingMessage;
  message_status: MessageStatusUpdate;
  permission_revoked: PermissionRevoked;
  post_public: PostMadePublic;
  comment: IncomingComment;
}

export type IncomingEvent = IncomingEventKinds[keyof IncomingEventKinds];

export interface IncomingRequest {
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | string[] | undefined>;
  rawBody: string;
}

/** What a receiver may look up to check a signature: an account's credentials by our account id. */
export interface WebhookAccounts {
  credentialsOf(accountId: string): Promise<AdapterAccount | null>;
  /** The connected accounts with this id at the platform, where a webhook names its account only in the body. */
  withPlatformAccountId?(platform: PlatformId, platformAccountId: string): Promise<AdapterAccount[]>;
}

/** Who signed a verified webhook: an account of ours where the platform signs per account, else the app. */
export interface WebhookSource {
  accountId: string | null;
}

/** Receiving a platform's webhooks: its handshake, its signature, its payload. */
export interface WebhookReceiver {
  /** The GET handshake: the challenge to answer, or null to refuse. */
  handshake?(query: IncomingRequest['query']): string | null;
  /** The source when the request is signed by the platform, else null. Constant-time comparisons only. */
  verify(request: IncomingRequest, accounts: WebhookAccounts): Promise<WebhookSource | null>;
  /**
   * A stable key for dropping a delivery the platform sends twice; null when the verified body lacks what names
   * it (an event without its id): not a notification the platform sends, refused before anything is stored.
   */
  dedupeKey(request: IncomingRequest): string | null;
  /** The events a verified body carries; read once before it is stored (to refuse what cannot be) and again to process it. */
  parse(rawBody: string, source: WebhookSource): IncomingEvent[];
  /**
   * Seconds before each new attempt at a stored webhook of this source whose handling failed, as the intake's
   * `retryScheduleSeconds` (which applies where this is unset): a source whose handling waits on another service
   * keeps retrying for as long as that service may be down.
   */
  readonly retryScheduleSeconds?: readonly number[];
  /** The permissions an account must have granted for the platform to send its events of each kind (none where not listed). */
  readonly eventScopes?: Partial<Record<IncomingEvent['kind'], readonly string[]>>;
  /**
   * Whether the platform still sends us this account's events, where it can tell: what is wrong (our webhook
   * replaced or deleted), or null when nothing is.
   */
  subscriptionProblem?(account: AdapterAccount): Promise<string | null>;
}

/** A shared place as a link anyone can open (OpenStreetMap at the coordinates). */
export function placeAttachment(latitude: number, longitude: number): IncomingAttachment {
  return {
    type: 'location',
    url: `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`,
    ref: null,
    mimeType: null,
    fileName: null,
    size: null,
  };
}
