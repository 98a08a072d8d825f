import { PlatformError } from '../errors.js';
import { type GraphList, nextCursorOf } from '../meta/graph.js';
import {
  type HistoryPage,
  type HistoryQuery,
  type Published,
  type PublishContent,
  type Publisher,
  type PublishedEdit,
  type PublishProgress,
  PostNotFound,
  PublishRefused,
  type RuleViolation,
  StillProcessing,
} from '../capabilities/publishing.js';
import type { AdapterAccount } from '../types.js';
import type { SocialNetworkClient } from './client.js';
import { classifyPageError, type SocialNetworkOptions, validatePagePost } from './publish-rules.js';
import { madeSince } from '../made-since.js';

/**
 * What one publication has done, saved after each step: the unpublished photos uploaded (`photoIds`), the video
 * created (`videoId`), the post made (`postId`), and the first comment (`comment`: its id, or why it was given up,
 * with `commentTries`). A later call resumes after the last step saved and never repeats it.
 */
interface Progress {
  photoIds?: string[];
  videoId?: string;
  videoRequestedAt?: string;
  postId?: string;
  url?: string | null;
  commentTries?: number;
  comment?: { id: string } | { failed: string };
}

interface GraphPost {
  id: string;
  message?: string;
  created_time: string;
  permalink_url?: string;
  full_picture?: string;
  attachments?: {
    data?: Array<{
      media?: { image?: { src?: string }; source?: string };
      url?: string;
      subattachments?: { data?: Array<{ media?: { image?: { src?: string } } }> };
    }>;
  };
  reactions?: { summary?: { total_count?: number } };
  comments?: { summary?: { total_count?: number } };
  shares?: { count?: number };
}
interface VideoStatus {
  id: string;
  post_id?: string;
  permalink_url?: string;
  status?: { video_status?: string; processing_phase?: { errors?: Array<{ message?: string }> } };
}

const LIST_FIELDS =
  'id,message,created_time,permalink_url,full_picture,attachments,reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),shares';
/** A comment that fails for a passing reason is tried again on the next looks, this many times in all. */
const COMMENT_TRIES = 3;
const LOOK_AGAIN_MS = 2_000;

/**
 * `social_network`: a post on a Facebook-style page, as the page (page token). Text and links go to `/feed`, one
 * photo to `/photos`, several photos are uploaded unpublished and attached to one `/feed` post, a video is
 * fetched by the platform from our URL (`/videos` with `file_url`) and processed before it is a post.
 *
 * The first comment comes after the post exists, and a failure of it never publishes the post again: the target
 * is published; a passing failure (throttling, an outage) is tried again on the next looks, up to three tries, and
 * a refusal, or the last try, is given up and kept in the target's state (`comment.failed`).
 */
export class SocialNetworkPublisher implements Publisher {
  constructor(private readonly client: SocialNetworkClient) {}

  validate(content: PublishContent): RuleViolation[] {
    return validatePagePost(content);
  }

  async publish(account: AdapterAccount, content: PublishContent, progress: PublishProgress): Promise<Published> {
    const state = { ...progress.state } as Progress;
    const save = (change: Partial<Progress>) => progress.save(Object.assign(state, change) as Record<string, unknown>);
    if (!state.postId) await this.makePost(account, content, state, save);
    return this.finish(account, content, state, save);
  }

  private async makePost(
    account: AdapterAccount,
    content: PublishContent,
    state: Progress,
    save: (change: Partial<Progress>) => Promise<void>,
  ): Promise<void> {
    const page = account.platformAccountId;
    const options = content.options as SocialNetworkOptions;
    const video = content.media.find((media) => media.kind === 'video');
    if (video) {
      // The time is saved before the call, so that a call whose answer was lost finds its video instead of making another.
      if (!state.videoId && state.videoRequestedAt)
        state.videoId = (await this.findVideo(account, content, new Date(state.videoRequestedAt))) ?? undefined;
      if (!state.videoId) {
        await save({ videoRequestedAt: new Date().toISOString() });
        const created = await this.call<{ id: string }>(account, 'POST', `${page}/videos`, {
          file_url: video.url,
          description: content.text ?? undefined,
        });
        await save({ videoId: created.id });
      }
      const ready = await this.videoReady(account, state.videoId!, save);
      if (!ready) {
        await save({});
        throw new StillProcessing(LOOK_AGAIN_MS, 'the platform is processing the video');
      }
      await save({ postId: ready.post_id });
      return;
    }
    if (content.media.length === 1) {
      const photo = await this.call<{ id: string; post_id: string }>(account, 'POST', `${page}/photos`, {
        url: content.media[0]!.url,
        caption: content.text ?? undefined,
      });
      await save({ postId: photo.post_id });
      return;
    }
    const attached: string[] = [...(state.photoIds ?? [])];
    for (const media of content.media.slice(attached.length)) {
      const photo = await this.call<{ id: string }>(account, 'POST', `${page}/photos`, { url: media.url, published: 'false' });
      attached.push(photo.id);
      await save({ photoIds: [...attached] });
    }
    const post = await this.call<{ id: string }>(account, 'POST', `${page}/feed`, {
      message: content.text ?? undefined,
      link: options.link,
      attached_media: attached.length ? JSON.stringify(attached.map((id) => ({ media_fbid: id }))) : undefined,
    });
    await save({ postId: post.id });
  }

  /** Whether the video is processed (its post id saved then); a processing error clears the progress and refuses. */
  private async videoReady(
    account: AdapterAccount,
    videoId: string,
    save?: (change: Partial<Progress>) => Promise<void>,
  ): Promise<VideoStatus | null> {
    const video = await this.call<VideoStatus>(account, 'GET', videoId, { fields: 'status,post_id,permalink_url' });
    const status = video.status?.video_status;
    if (status === 'error') {
      if (save) await save({ videoId: undefined, videoRequestedAt: undefined });
      const why = video.status?.processing_phase?.errors?.[0]?.message ?? 'the platform could not process the video';
      throw new PublishRefused('invalid_request', why, 'media_processing_failed', { platformCode: 'video_status:error' });
    }
    return status === 'ready' && video.post_id ? video : null;
  }

  /** The post exists: its link, and the first comment if asked for. */
  private async finish(
    account: AdapterAccount,
    content: PublishContent,
    state: Progress,
    save: ((change: Partial<Progress>) => Promise<void>) | null,
  ): Promise<Published> {
    if (state.url === undefined) {
      const read = await this.call<{ permalink_url?: string }>(account, 'GET', state.postId!, { fields: 'permalink_url' }).catch(
        () => null,
      );
      state.url = read?.permalink_url ?? null;
      if (save) await save({});
    }
    const firstComment = (content.options as SocialNetworkOptions).firstComment;
    // A try that failed may have made the comment all the same (its answer lost): look before trying again.
    if (firstComment && !state.comment && state.commentTries) await this.commentIfMissing(account, content, state);
    if (firstComment && !state.comment) await this.comment(account, firstComment, state, save);
    return {
      platformPostId: state.postId!,
      url: state.url ?? null,
      state: { postId: state.postId, ...(state.comment ? { comment: state.comment } : {}) },
    };
  }

  private async comment(
    account: AdapterAccount,
    message: string,
    state: Progress,
    save: ((change: Partial<Progress>) => Promise<void>) | null,
  ): Promise<void> {
    try {
      const made = await this.call<{ id: string }>(account, 'POST', `${state.postId}/comments`, { message });
      state.comment = { id: made.id };
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      const tries = (state.commentTries ?? 0) + 1;
      const passing = error.kind === 'rate_limited' || error.kind === 'transient';
      if (passing && save && tries < COMMENT_TRIES) {
        await save({ commentTries: tries });
        const wait = error.details.retryAt ? Math.max(error.details.retryAt.getTime() - Date.now(), LOOK_AGAIN_MS) : LOOK_AGAIN_MS * tries;
        throw new StillProcessing(wait, `the post is published; its first comment failed (${error.message}) and is tried again`);
      }
      state.comment = {
        failed: `${error.message}${error.details.platformCode === undefined ? '' : ` (code ${error.details.platformCode})`}`,
      };
    }
    if (save) await save({});
  }

  /**
   * An attempt whose answer was lost: a post saved in the progress is ours; a video created is looked at; else
   * the page's posts (and videos) made since the attempt started are searched for our message.
   */
  async reconcile(
    account: AdapterAccount,
    content: PublishContent,
    saved: Record<string, unknown>,
    since: Date,
  ): Promise<Published | null> {
    const state = { ...saved } as Progress;
    const video = content.media.some((media) => media.kind === 'video');
    if (!state.postId && video) {
      // Not created, not ready, or failed: `publish` resumes from the saved video (or finds the one a lost answer made).
      const ready = state.videoId
        ? await this.videoReady(account, state.videoId).catch((error: unknown) => {
            if (error instanceof PublishRefused) return null;
            throw error;
          })
        : null;
      if (!ready) return null;
      state.postId = ready.post_id;
    }
    if (!state.postId) state.postId = (await this.findPost(account, content, since))?.id;
    if (!state.postId) return null;
    await this.commentIfMissing(account, content, state);
    return this.finish(account, content, state, null);
  }

  /** A comment whose answer was lost may be there already: the page's own comment with our text counts. */
  private async commentIfMissing(account: AdapterAccount, content: PublishContent, state: Progress): Promise<void> {
    const wanted = (content.options as SocialNetworkOptions).firstComment;
    if (!wanted || state.comment) return;
    const comments = await this.call<GraphList<{ id: string; message?: string; from?: { id: string } }>>(
      account,
      'GET',
      `${state.postId}/comments`,
      { fields: 'id,message,from', limit: 100 },
    );
    const ours = comments.data.find((c) => c.from?.id === account.platformAccountId && c.message === wanted);
    if (ours) state.comment = { id: ours.id };
  }

  private async findPost(account: AdapterAccount, content: PublishContent, since: Date): Promise<GraphPost | null> {
    // Clocks differ: a minute of slack before the attempt started.
    const list = await this.call<GraphList<GraphPost>>(account, 'GET', `${account.platformAccountId}/published_posts`, {
      fields: 'id,message,created_time,attachments',
      since: Math.floor((since.getTime() - 60_000) / 1000),
      limit: 100,
    });
    const photos = content.media.length;
    return list.data.find((post) => (post.message ?? null) === (content.text || null) && mediaCount(post) === photos) ?? null;
  }

  private async findVideo(account: AdapterAccount, content: PublishContent, since: Date): Promise<string | null> {
    const list = await this.call<GraphList<{ id: string; description?: string; created_time: string }>>(
      account,
      'GET',
      `${account.platformAccountId}/videos`,
      {
        fields: 'id,description,created_time',
        limit: 25,
      },
    );
    const recent = list.data.filter((v) => madeSince(v.created_time.replace('+0000', 'Z'), since));
    return recent.find((v) => (v.description ?? null) === (content.text || null))?.id ?? null;
  }

  async delete(account: AdapterAccount, platformPostId: string): Promise<void> {
    await this.onPagePost(account, platformPostId, 'DELETE', {});
  }

  /** A page post's text, as the Graph lets an app change the posts it made (`POST /{page-post-id}` with `message`). */
  readonly editable = ['text'] as const;

  async edit(account: AdapterAccount, platformPostId: string, _state: Record<string, unknown>, { content }: PublishedEdit): Promise<void> {
    await this.onPagePost(account, platformPostId, 'POST', { message: content.text ?? '' });
  }

  /** A call on one of the page's posts: a post of another page, or none (deleted already, never there), is PostNotFound. */
  private async onPagePost(account: AdapterAccount, platformPostId: string, method: 'POST' | 'DELETE', params: Record<string, string>) {
    // A post id names its page: another page's post is not this account's.
    if (!platformPostId.startsWith(`${account.platformAccountId}_`)) throw new PostNotFound(platformPostId);
    try {
      await this.call<{ success: boolean }>(account, method, platformPostId, params);
    } catch (error) {
      // 100/33: no such object.
      if (error instanceof PlatformError && error.details.platformCode === 100) throw new PostNotFound(platformPostId, error.details);
      throw error;
    }
  }

  /** The page's published posts, newest first, with `since`/`until` on the platform's query and its cursor. */
  async history(account: AdapterAccount, query: HistoryQuery): Promise<HistoryPage> {
    const list = await this.call<GraphList<GraphPost>>(account, 'GET', `${account.platformAccountId}/published_posts`, {
      fields: LIST_FIELDS,
      limit: Math.min(query.limit, 100),
      after: query.cursor,
      since: query.from ? Math.floor(query.from.getTime() / 1000) : undefined,
      until: query.to ? Math.ceil(query.to.getTime() / 1000) : undefined,
    });
    // The Graph's times are whole seconds: a post in the second `from` falls in is kept; `to` is exclusive.
    const inRange = list.data.filter((post) => {
      const at = graphDate(post.created_time).getTime();
      return (!query.from || at >= Math.floor(query.from.getTime() / 1000) * 1000) && (!query.to || at < query.to.getTime());
    });
    return {
      posts: inRange.map((post) => ({
        platformPostId: post.id,
        text: post.message ?? null,
        url: post.permalink_url ?? null,
        mediaUrls: mediaUrlsOf(post),
        publishedAt: graphDate(post.created_time),
        metrics: {
          impressions: null,
          reach: null,
          views: null,
          saves: null,
          clicks: null,
          likes: post.reactions?.summary?.total_count ?? null,
          comments: post.comments?.summary?.total_count ?? null,
          shares: post.shares?.count ?? 0,
        },
      })),
      nextCursor: nextCursorOf(list),
    };
  }

  /** One Graph call with the page token (a write's parameters form-encoded); refusals of the post in the user's terms. */
  private call<T>(
    account: AdapterAccount,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    params: Record<string, string | number | undefined>,
  ): Promise<T> {
    const token = account.credentials.accessToken;
    return this.client.call<T>(method, path, method === 'POST' ? { token, form: params } : { token, query: params }, classifyPageError);
  }
}

function graphDate(value: string): Date {
  return new Date(value.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
}

function mediaCount(post: GraphPost): number {
  const attachment = post.attachments?.data?.[0];
  if (!attachment?.media && !attachment?.subattachments) return 0;
  return attachment.subattachments?.data?.length ?? 1;
}

function mediaUrlsOf(post: GraphPost): string[] {
  const attachment = post.attachments?.data?.[0];
  const urls = attachment?.subattachments?.data?.map((item) => item.media?.image?.src) ?? [
    attachment?.media?.source ?? attachment?.media?.image?.src ?? post.full_picture,
  ];
  return urls.filter((url): url is string => Boolean(url));
}
