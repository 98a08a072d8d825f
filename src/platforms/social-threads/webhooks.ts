import { sha256Hex } from '../../lib/crypto.js';
import type { IncomingEvent, IncomingRequest, WebhookReceiver, WebhookSource } from '../capabilities/webhooks.js';
import { jsonObject } from '../json-body.js';
import { metaHandshake, metaSignatureValid } from '../meta/webhook-signature.js';
import { actionsOn } from './comments.js';

/** A new reply under a profile's thread, as the `replies` webhook field carries it. */
interface ReplyValue {
  id?: string;
  username?: string;
  text?: string;
  timestamp?: string;
  replied_to?: { id?: string };
  root_post?: { id?: string; owner_id?: string; username?: string };
}
interface ThreadsNotification {
  target_id?: string;
  time?: number;
  values?: Change | Change[];
}
interface Change {
  field?: string;
  value?: ReplyValue;
}

/**
 * Threads' webhooks, configured in the app's dashboard: the GET handshake with our verify token, each POST signed
 * by the app (`X-Hub-Signature-256`). The `replies` field announces a new reply under one of the profile's threads
 * (`root_post.owner_id`); Threads sends no edits, hides or removals.
 */
export class SocialThreadsWebhooks implements WebhookReceiver {
  readonly eventScopes = { comment: ['threads_read_replies'] };

  constructor(
    private readonly appSecret: string,
    readonly verifyToken: string,
  ) {}

  handshake(query: IncomingRequest['query']): string | null {
    return metaHandshake(query, this.verifyToken);
  }

  async verify(request: IncomingRequest): Promise<WebhookSource | null> {
    return metaSignatureValid(request, this.appSecret) ? { accountId: null } : null;
  }

  dedupeKey(request: IncomingRequest): string {
    return `body:${sha256Hex(request.rawBody)}`;
  }

  parse(rawBody: string): IncomingEvent[] {
    const notification = jsonObject<ThreadsNotification>(rawBody);
    const changes = [notification?.values ?? []].flat();
    const events: IncomingEvent[] = [];
    for (const { field, value } of changes) {
      const root = value?.root_post;
      const owner = root?.owner_id ?? notification?.target_id;
      if (field !== 'replies' || !value?.id || !root?.id || !owner || !value.timestamp) continue;
      const createdAt = new Date(value.timestamp);
      const username = value.username ?? null;
      const own = username !== null && username === root.username;
      events.push({
        kind: 'comment',
        change: 'added',
        accountId: null,
        platformAccountId: owner,
        platformPostId: root.id,
        platformCommentId: value.id,
        parentId: value.replied_to?.id && value.replied_to.id !== root.id ? value.replied_to.id : null,
        from: own ? { id: owner, name: null, username } : username ? { id: username, name: null, username } : null,
        text: value.text ?? '',
        createdAt,
        at: createdAt,
        can: actionsOn(own),
      });
    }
    return events;
  }
}
