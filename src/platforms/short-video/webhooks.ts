import type { IncomingEvent } from '../capabilities/webhooks.js';
import { jsonObject } from '../json-body.js';
import { TikTokWebhooks, type TikTokNotification } from '../tiktok/webhooks.js';
import { publicUrlOf } from './links.js';

/**
 * The event's `content`, itself JSON. `post_id` is an int64 past 2^53, which a plain parse would round to another
 * post's id: a bare number there is made a string first.
 */
function readContent(content: string | undefined): { publish_id?: string; post_id?: string } {
  return jsonObject<{ publish_id?: string; post_id?: string }>((content ?? '').replace(/("post_id"\s*:\s*)(-?\d+)/, '$1"$2"')) ?? {};
}

/** Login Kit's webhooks, signed with the app's client secret: the user is named only by open_id. */
export class ShortVideoWebhooks extends TikTokWebhooks {
  /**
   * The user removed the app: every token of the grant is revoked. A post made public after its review: its public
   * id replaces the publish id it was recorded under. Other events (publish results the status already gave) are kept only.
   */
  parse(rawBody: string): IncomingEvent[] {
    const notification = jsonObject<TikTokNotification>(rawBody) ?? {};
    if (!notification.user_openid) return [];
    if (notification.event === 'authorization.removed') {
      return [{ kind: 'permission_revoked', accountId: null, platformAccountId: notification.user_openid, reason: 'token_revoked' }];
    }
    if (notification.event === 'post.publish.publicly_available') {
      const content = readContent(notification.content);
      if (!content.publish_id || !content.post_id) return [];
      const platformPostId = content.post_id;
      return [
        {
          kind: 'post_public',
          platformAccountId: notification.user_openid,
          provisionalId: content.publish_id,
          platformPostId,
          urlFor: (state) => publicUrlOf(state, platformPostId),
        },
      ];
    }
    return [];
  }
}
