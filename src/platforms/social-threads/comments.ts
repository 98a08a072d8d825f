import {
  type CommentActions,
  CommentNotFoundAtPlatform,
  type Comments,
  type CommentTarget,
  type PlatformComment,
} from '../capabilities/comments.js';
import { classifyCommentError } from '../meta/comment-errors.js';
import { type GraphList, nextCursorOf } from '../meta/graph.js';
import type { AdapterAccount } from '../types.js';
import type { SocialThreadsClient } from './client.js';

interface ThreadsReply {
  id: string;
  text?: string;
  username?: string;
  timestamp: string;
  permalink?: string;
  hide_status?: string;
  replied_to?: { id: string };
  root_post?: { id: string };
  is_reply_owned_by_me?: boolean;
}

const FIELDS = 'id,text,username,timestamp,permalink,hide_status,replied_to,root_post,is_reply_owned_by_me';
const PAGE_SIZE = 100;
/** Threads posts, replies included, take 500 characters. */
const MAX_REPLY_LENGTH = 500;

/**
 * A profile may hide (`manage_reply`) the replies others wrote under its threads, and delete only its own replies;
 * Threads has no private replies.
 */
export function actionsOn(own: boolean): CommentActions {
  return own
    ? { hide: false, delete: true, reply: true, replyPrivately: false }
    : { hide: true, delete: false, reply: true, replyPrivately: false };
}

/**
 * Replies to a profile's threads over the Threads API: `/{media}/conversation` (every depth), `/{media}/replies`,
 * a reply as a thread with `reply_to_id` (container, then `threads_publish`), `/{reply}/manage_reply` (hide),
 * `DELETE /{reply}`. A reply's author is named by username only: it is their id here.
 */
export class SocialThreadsComments implements Comments {
  readonly maxReplyLength = MAX_REPLY_LENGTH;
  readonly repliesTakeImages = false;
  readonly writeScopes = ['threads_manage_replies'];

  constructor(private readonly client: SocialThreadsClient) {}

  private call<T>(account: AdapterAccount, method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, string> = {}) {
    return this.client.call<T>(account.credentials.accessToken, method, path, params, classifyCommentError);
  }

  async recentPostIds(account: AdapterAccount, limit: number): Promise<string[]> {
    const threads = await this.call<GraphList<{ id: string }>>(account, 'GET', `${account.platformAccountId}/threads`, {
      fields: 'id',
      limit: String(limit),
    });
    return threads.data.map((thread) => thread.id);
  }

  async list(account: AdapterAccount, postId: string, cursor: string | null) {
    const page = await this.call<GraphList<ThreadsReply>>(account, 'GET', `${postId}/conversation`, {
      fields: FIELDS,
      reverse: 'true',
      limit: String(PAGE_SIZE),
      ...(cursor ? { after: cursor } : {}),
    });
    return { comments: page.data.map((reply) => this.present(account, reply, postId)), next: nextCursorOf(page) };
  }

  /** A reply; a thread of the profile's own is no reply: only replies have a `root_post`. */
  async read(account: AdapterAccount, commentId: string): Promise<PlatformComment> {
    const reply = await this.call<ThreadsReply>(account, 'GET', commentId, { fields: FIELDS });
    if (!reply.root_post) throw new CommentNotFoundAtPlatform(`${commentId} is not a reply`);
    return this.present(account, reply);
  }

  async reply(account: AdapterAccount, target: CommentTarget, text: string): Promise<PlatformComment> {
    const container = await this.call<{ id: string }>(account, 'POST', `${account.platformAccountId}/threads`, {
      media_type: 'TEXT',
      text,
      reply_to_id: targetId(target),
    });
    const published = await this.call<{ id: string }>(account, 'POST', `${account.platformAccountId}/threads_publish`, {
      creation_id: container.id,
    });
    return this.read(account, published.id);
  }

  /** The profile's own replies under the target with this text, published since the attempt began. */
  async findReply(account: AdapterAccount, target: CommentTarget, text: string, since: Date): Promise<PlatformComment | null> {
    const replies = await this.call<GraphList<ThreadsReply>>(account, 'GET', `${targetId(target)}/replies`, {
      fields: FIELDS,
      reverse: 'true',
      limit: String(PAGE_SIZE),
    });
    const from = Math.floor(since.getTime() / 1000) * 1000;
    const found = replies.data.find((r) => r.is_reply_owned_by_me && (r.text ?? '') === text && Date.parse(r.timestamp) >= from);
    return found ? this.present(account, found) : null;
  }

  async hide(account: AdapterAccount, commentId: string, hidden: boolean): Promise<void> {
    await this.call(account, 'POST', `${commentId}/manage_reply`, { hide: String(hidden) });
  }

  async remove(account: AdapterAccount, commentId: string): Promise<void> {
    await this.call(account, 'DELETE', commentId);
  }

  private present(account: AdapterAccount, reply: ThreadsReply, postId?: string): PlatformComment {
    const own = reply.is_reply_owned_by_me ?? false;
    const root = reply.root_post?.id ?? postId ?? reply.replied_to?.id ?? '';
    const username = reply.username ?? null;
    return {
      id: reply.id,
      postId: root,
      parentId: reply.replied_to && reply.replied_to.id !== root ? reply.replied_to.id : null,
      from: own ? { id: account.platformAccountId, name: null, username } : username ? { id: username, name: null, username } : null,
      text: reply.text ?? '',
      hidden: reply.hide_status === 'HIDDEN',
      likeCount: null,
      permalink: reply.permalink ?? null,
      createdAt: new Date(reply.timestamp).toISOString(),
      can: actionsOn(own),
    };
  }
}

function targetId(target: CommentTarget): string {
  return 'commentId' in target ? target.commentId : target.postId;
}
