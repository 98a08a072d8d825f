import { CommentNotFoundAtPlatform, type Comments, type CommentTarget, type PlatformComment } from '../capabilities/comments.js';
import { classifyCommentError } from '../meta/comment-errors.js';
import { type GraphList, nextCursorOf } from '../meta/graph.js';
import type { AdapterAccount } from '../types.js';
import type { SocialNetworkClient } from './client.js';

interface GraphComment {
  id: string;
  message?: string;
  from?: { id: string; name?: string };
  created_time: string;
  is_hidden?: boolean;
  parent?: { id: string };
  like_count?: number;
  permalink_url?: string;
  can_hide?: boolean;
  can_remove?: boolean;
  can_reply_privately?: boolean;
  can_comment?: boolean;
}

const FIELDS =
  'id,message,from,created_time,is_hidden,parent{id},like_count,permalink_url,can_hide,can_remove,can_reply_privately,can_comment';
/** Graph's largest page. */
const PAGE_SIZE = 100;
/** Graph's comment bodies are long; ours keeps to the contract's limit. */
const MAX_COMMENT_LENGTH = 8000;

/** A page's comments over the Graph API, with the page's token: `/{post}/comments`, `/{comment}` (hide, read, delete). */
export class SocialNetworkComments implements Comments {
  readonly maxReplyLength = MAX_COMMENT_LENGTH;
  readonly repliesTakeImages = true;
  readonly writeScopes = ['pages_manage_engagement'];

  constructor(private readonly client: SocialNetworkClient) {}

  private call<T>(account: AdapterAccount, method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, string> = {}) {
    const token = account.credentials.accessToken;
    return this.client.call<T>(method, path, method === 'POST' ? { token, form: params } : { token, query: params }, classifyCommentError);
  }

  async recentPostIds(account: AdapterAccount, limit: number): Promise<string[]> {
    const posts = await this.call<GraphList<{ id: string }>>(account, 'GET', `${account.platformAccountId}/published_posts`, {
      fields: 'id',
      limit: String(limit),
    });
    return posts.data.map((post) => post.id);
  }

  /** `filter=stream`: every comment of the post, replies included, in one flat list. */
  async list(account: AdapterAccount, postId: string, cursor: string | null) {
    const page = await this.call<GraphList<GraphComment>>(account, 'GET', `${postId}/comments`, {
      fields: FIELDS,
      filter: 'stream',
      order: 'reverse_chronological',
      limit: String(PAGE_SIZE),
      ...(cursor ? { after: cursor } : {}),
    });
    return { comments: page.data.map((comment) => this.present(comment, postId)), next: nextCursorOf(page) };
  }

  /** A comment; any other object (a post) is no comment: only comments carry `can_remove`. */
  async read(account: AdapterAccount, commentId: string): Promise<PlatformComment> {
    const comment = await this.call<GraphComment>(account, 'GET', commentId, { fields: FIELDS });
    if (comment.can_remove === undefined) throw new CommentNotFoundAtPlatform(`${commentId} is not a comment`);
    return this.present(comment, postOf(account, commentId));
  }

  async reply(account: AdapterAccount, target: CommentTarget, text: string, imageUrl: string | null): Promise<PlatformComment> {
    const made = await this.call<{ id: string }>(account, 'POST', `${targetId(target)}/comments`, {
      message: text,
      ...(imageUrl ? { attachment_url: imageUrl } : {}),
    });
    return this.read(account, made.id);
  }

  /**
   * The page's newest comments on the target's post, looked through for this text, written since the attempt
   * began: the whole post, as a reply to a reply is filed under the comment it answers.
   */
  async findReply(account: AdapterAccount, target: CommentTarget, text: string, since: Date): Promise<PlatformComment | null> {
    const postId = 'postId' in target ? target.postId : postOf(account, target.commentId);
    const page = await this.call<GraphList<GraphComment>>(account, 'GET', `${postId}/comments`, {
      fields: FIELDS,
      filter: 'stream',
      order: 'reverse_chronological',
      limit: String(PAGE_SIZE),
    });
    // Graph's times are whole seconds: a reply made in the second the attempt began is written "before" it.
    const from = Math.floor(since.getTime() / 1000) * 1000;
    const found = page.data.find(
      (c) => c.from?.id === account.platformAccountId && (c.message ?? '') === text && Date.parse(c.created_time) >= from,
    );
    return found ? this.present(found, postId) : null;
  }

  async hide(account: AdapterAccount, commentId: string, hidden: boolean): Promise<void> {
    await this.call(account, 'POST', commentId, { is_hidden: String(hidden) });
  }

  async remove(account: AdapterAccount, commentId: string): Promise<void> {
    await this.call(account, 'DELETE', commentId);
  }

  private present(comment: GraphComment, postId: string): PlatformComment {
    return {
      id: comment.id,
      postId,
      parentId: comment.parent?.id ?? null,
      from: comment.from ? { id: comment.from.id, name: comment.from.name ?? null, username: null } : null,
      text: comment.message ?? '',
      hidden: comment.is_hidden ?? false,
      likeCount: comment.like_count ?? null,
      permalink: comment.permalink_url ?? null,
      createdAt: new Date(comment.created_time).toISOString(),
      can: {
        hide: comment.can_hide ?? false,
        delete: comment.can_remove ?? false,
        reply: comment.can_comment ?? true,
        replyPrivately: comment.can_reply_privately ?? false,
      },
    };
  }
}

function targetId(target: CommentTarget): string {
  return 'commentId' in target ? target.commentId : target.postId;
}

/** A page post's comment is `{post}_{comment}`; its post, `{page}_{post}`. */
function postOf(account: AdapterAccount, commentId: string): string {
  return `${account.platformAccountId}_${commentId.split('_')[0]}`;
}
