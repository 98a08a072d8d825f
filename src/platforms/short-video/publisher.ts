import { PlatformError } from '../errors.js';
import {
  type HistoryPage,
  type HistoryQuery,
  type Published,
  type PublishContent,
  type Publisher,
  type PublishMedia,
  type PublishProgress,
  OutcomeUnknowable,
  PublishRefused,
  type RuleViolation,
  StillProcessing,
} from '../capabilities/publishing.js';
import type { AdapterAccount } from '../types.js';
import type { ShortVideoClient } from './client.js';
import { failReasonRefusal, initRefusal } from './publish-errors.js';
import { publicUrlOf } from './links.js';
import { type ShortVideoOptions, validateShortVideo } from './publish-rules.js';
import type { OpenMedia } from '../platform-module.js';
import { planChunks, uploadChunks } from './upload.js';

interface CreatorInfo {
  creator_username?: string;
  privacy_level_options?: string[];
  comment_disabled?: boolean;
  duet_disabled?: boolean;
  stitch_disabled?: boolean;
  max_video_post_duration_sec?: number;
}
/** `publicaly_available_post_id` (the platform's spelling) holds int64 numbers, read here as strings. */
interface PostStatus {
  status?: string;
  fail_reason?: string;
  publicaly_available_post_id?: string[];
  uploaded_bytes?: number;
}
interface ListedVideo {
  id: string;
  title?: string;
  video_description?: string;
  create_time: number;
  share_url?: string;
  cover_image_url?: string;
  like_count?: number;
  comment_count?: number;
  share_count?: number;
  view_count?: number;
}

/**
 * Kept with the target between calls. `initSentAt`: an init was (about to be) sent; `publishId` its answer;
 * `uploaded`: every chunk of the video was accepted. With these a later attempt resumes instead of posting again.
 */
interface ProgressState {
  kind?: 'video' | 'photo';
  initSentAt?: string;
  publishId?: string;
  uploaded?: boolean;
  username?: string;
}

const HISTORY_FIELDS = 'id,title,video_description,create_time,share_url,cover_image_url,like_count,comment_count,share_count,view_count';

/**
 * `short_video` Direct Post: the creator's settings first (creator_info), then one init — a video's bytes PUT in
 * chunks to its upload URL (FILE_UPLOAD), photos pulled by the platform from their public URLs (PULL_FROM_URL, the
 * only source photos have) — then the status, polled until the post is published or failed.
 *
 * Videos use FILE_UPLOAD rather than PULL_FROM_URL: pulling needs the service's public domain verified in the app's
 * developer portal, which a self-hosted deployment may not have, and an upload whose answer is lost is harmless
 * (see `reconcile`). Apps cannot delete posts on this platform, so there is no `delete`.
 */
export class ShortVideoPublisher implements Publisher {
  constructor(
    private readonly client: ShortVideoClient,
    private readonly openMedia: OpenMedia,
  ) {}

  validate(content: PublishContent): RuleViolation[] {
    return validateShortVideo(content);
  }

  async publish(account: AdapterAccount, content: PublishContent, progress: PublishProgress): Promise<Published> {
    const state = progress.state as ProgressState;
    if (state.publishId) {
      const followed = await this.follow(account, content, state, progress);
      if (followed) return followed;
      // The earlier upload never completed, so it can never publish: a new init is safe.
    }
    const creator = await this.call<CreatorInfo>(account, '/v2/post/publish/creator_info/query/', {});
    const video = content.media.find((media) => media.kind === 'video');
    const postInfo = postInfoOf(content, creator, video);
    const started: ProgressState = {
      kind: video ? 'video' : 'photo',
      initSentAt: new Date().toISOString(),
      username: creator.creator_username ?? '',
    };
    // Saved before the init: a lost answer then tells reconcile that an init may exist (a photo post may be on its way).
    await progress.save({ ...started });
    let init: { publish_id?: string; upload_url?: string };
    try {
      init = video
        ? await this.call(
            account,
            '/v2/post/publish/video/init/',
            {
              post_info: postInfo,
              source_info: { source: 'FILE_UPLOAD', ...sourceOf(video) },
            },
            true,
          )
        : await this.call(
            account,
            '/v2/post/publish/content/init/',
            {
              post_info: postInfo,
              media_type: 'PHOTO',
              post_mode: 'DIRECT_POST',
              source_info: { source: 'PULL_FROM_URL', photo_images: content.media.map((media) => media.url), photo_cover_index: 0 },
            },
            true,
          );
    } catch (error) {
      // A definite refusal created nothing; only a lost answer leaves the init's outcome to be found out.
      if (error instanceof PlatformError && error.kind !== 'transient') await progress.save({});
      throw error;
    }
    if (!init.publish_id) throw new PlatformError('transient', 'the init answer names no publish_id');
    const initiated: ProgressState = { ...started, publishId: init.publish_id };
    await progress.save({ ...initiated });
    if (video) {
      if (!init.upload_url) throw new PlatformError('transient', 'the video init answer has no upload_url');
      await uploadChunks(init.upload_url, video.id, video.mimeType, planChunks(video.size), this.openMedia);
      initiated.uploaded = true;
      await progress.save({ ...initiated });
    }
    const followed = await this.follow(account, content, initiated, progress);
    if (!followed) throw new PlatformError('transient', 'the platform has not received the whole video');
    return followed;
  }

  /**
   * With a publish_id the status answers. Without one the init's answer was lost: a video init then made at most
   * an upload task whose URL nobody has, which never publishes and expires within the hour — a new init is safe
   * (at the cost of one of the creator's 6 inits a minute). A photo init's platform pulls the photos on its own,
   * so the post may exist, and nothing can tell (the status needs the publish_id; the video list shows neither
   * private posts nor, reliably, photos): the target fails as unknown for the user to check, never sent twice.
   */
  async reconcile(account: AdapterAccount, content: PublishContent, state: Record<string, unknown>): Promise<Published | null> {
    const saved = state as ProgressState;
    if (saved.publishId) return this.follow(account, content, saved, null);
    if (!saved.initSentAt || saved.kind !== 'photo') return null;
    throw new OutcomeUnknowable("the platform did not answer the photo post's init, and without that answer it cannot be asked");
  }

  /** The creator's public videos, newest first, with the platform's cursor; the list has no time filter, so from/to apply here. */
  async history(account: AdapterAccount, query: HistoryQuery): Promise<HistoryPage> {
    const body: Record<string, number> = { max_count: Math.min(query.limit, 20) };
    if (query.cursor) body.cursor = Number(query.cursor);
    const missingScope = () =>
      new PlatformError(
        'invalid_request',
        'The creator has not granted video.list (reading their videos): connect the ' +
          'account again to read its history. Publishing does not need it.',
        { platformCode: 'scope_not_authorized' },
      );
    // Accounts connected before the service asked for video.list lack it; that must not stop them publishing.
    const granted = account.credentials.extra?.scope;
    if (granted !== undefined && !granted.split(',').includes('video.list')) throw missingScope();
    const page = await this.call<{ videos?: ListedVideo[]; cursor?: number; has_more?: boolean }>(
      account,
      `/v2/video/list/?fields=${HISTORY_FIELDS}`,
      body,
    ).catch((error: unknown) => {
      throw error instanceof PlatformError && error.details.platformCode === 'scope_not_authorized' ? missingScope() : error;
    });
    const listed = page.videos ?? [];
    const inRange = listed.filter((video) => {
      const at = video.create_time * 1000;
      return (!query.from || at >= query.from.getTime()) && (!query.to || at < query.to.getTime());
    });
    // Newest first: once a page reaches before `from`, no later page can hold anything in range.
    const pastFrom = query.from !== undefined && listed.some((video) => video.create_time * 1000 < query.from!.getTime());
    return {
      posts: inRange.map((video) => ({
        platformPostId: String(video.id),
        text: video.video_description || video.title || null,
        url: video.share_url ?? null,
        mediaUrls: video.cover_image_url ? [video.cover_image_url] : [],
        publishedAt: new Date(video.create_time * 1000),
        metrics: {
          impressions: null,
          reach: null,
          views: video.view_count ?? null,
          likes: video.like_count ?? null,
          comments: video.comment_count ?? null,
          shares: video.share_count ?? null,
          saves: null,
          clicks: null,
        },
      })),
      nextCursor: !pastFrom && page.has_more && page.cursor !== undefined ? String(page.cursor) : null,
    };
  }

  /**
   * One look at the status: published, failed (the saved progress cleared, so that a retry starts afresh), still
   * processing, or null when a video's upload never completed (nothing will publish from it) or, for reconcile
   * (no progress to clear), when the post failed.
   */
  private async follow(
    account: AdapterAccount,
    content: PublishContent,
    state: ProgressState,
    progress: PublishProgress | null,
  ): Promise<Published | null> {
    const status = await this.client.postStatus<PostStatus>(account.credentials.accessToken, state.publishId!);
    if (status.status === 'PUBLISH_COMPLETE') return publishedOf(state, status);
    if (status.status === 'FAILED') {
      // Reconcile cannot clear the progress: it answers "not published", and publish reports the failure and clears it.
      if (!progress) return null;
      await progress.save({});
      throw failReasonRefusal(status.fail_reason);
    }
    if (state.kind === 'video' && !state.uploaded) {
      const video = content.media.find((media) => media.kind === 'video');
      if ((status.uploaded_bytes ?? 0) < (video?.size ?? Infinity)) return null;
      // Every byte arrived before the attempt stopped: only the processing is left.
      state.uploaded = true;
      if (progress) await progress.save({ ...state });
    }
    throw new StillProcessing(
      checkAfterMs(state),
      `the platform is processing the ${state.kind ?? 'post'} (${status.status ?? 'no status'})`,
    );
  }

  /** A POST of the open API with the creator's token; inits have refusals of their own. */
  private call<T>(account: AdapterAccount, path: string, body: unknown, init = false): Promise<T> {
    return this.client.api<T>(account.credentials.accessToken, 'POST', path, body, init ? initRefusal : undefined);
  }
}

/** The post_info of an init, refused first where the creator's settings forbid what the post asks for. */
function postInfoOf(content: PublishContent, creator: CreatorInfo, video: PublishMedia | undefined): Record<string, unknown> {
  const options = content.options as ShortVideoOptions;
  const allowed = creator.privacy_level_options ?? [];
  const privacy = options.privacyLevel ?? '';
  if (!allowed.includes(privacy)) {
    if (allowed.length === 1 && allowed[0] === 'SELF_ONLY') {
      throw new PublishRefused(
        'invalid_request',
        `The app is not audited by short_video yet, so it may post only privately (privacyLevel SELF_ONLY), not ${privacy}. ` +
          'Choose SELF_ONLY, or have the app audited.',
        'permission_denied',
        { platformCode: 'unaudited_client_can_only_post_to_private_accounts' },
      );
    }
    throw new PublishRefused(
      'invalid_request',
      `privacyLevel ${privacy} is not one of this creator's options (${allowed.join(', ')}).`,
      'permission_denied',
      { platformCode: 'privacy_level_option_mismatch' },
    );
  }
  const maxSeconds = creator.max_video_post_duration_sec;
  if (video?.durationMs && maxSeconds && video.durationMs > maxSeconds * 1000) {
    throw new PublishRefused(
      'invalid_request',
      `The video lasts ${Math.ceil(video.durationMs / 1000)} s; this creator may post videos of up to ${maxSeconds} s.`,
      'media_invalid',
      { platformCode: 'duration_check_failed' },
    );
  }
  // An interaction the creator turned off stays off: asked for explicitly it is refused, left unset it follows the creator.
  const interaction = (
    option: 'disableComment' | 'disableDuet' | 'disableStitch',
    offForCreator: boolean | undefined,
    name: string,
  ): boolean => {
    if (!offForCreator) return options[option] ?? false;
    if (options[option] === false) {
      throw new PublishRefused(
        'invalid_request',
        `The creator has turned ${name} off in their settings; ${option} cannot be false.`,
        'permission_denied',
      );
    }
    return true;
  };
  const title = video ? (options.title ?? content.text ?? '') : (options.title ?? '');
  return {
    title,
    ...(video ? {} : { description: content.text ?? '' }),
    privacy_level: privacy,
    disable_comment: interaction('disableComment', creator.comment_disabled, 'comments'),
    ...(video
      ? {
          disable_duet: interaction('disableDuet', creator.duet_disabled, 'duets'),
          disable_stitch: interaction('disableStitch', creator.stitch_disabled, 'stitches'),
          ...(options.coverTimestampMs !== undefined ? { video_cover_timestamp_ms: options.coverTimestampMs } : {}),
        }
      : {}),
  };
}

function sourceOf(video: PublishMedia) {
  const plan = planChunks(video.size);
  return { video_size: plan.videoSize, chunk_size: plan.chunkSize, total_chunk_count: plan.totalChunkCount };
}

/**
 * The post's id is given only once it is public (after moderation); a private post never has one, so the
 * publish_id stands for it then.
 */
function publishedOf(state: ProgressState, status: PostStatus): Published {
  const postId = status.publicaly_available_post_id?.[0];
  const kept = { kind: state.kind, publishId: state.publishId, username: state.username };
  if (postId === undefined) return { platformPostId: state.publishId!, url: null, state: kept };
  return { platformPostId: String(postId), url: publicUrlOf(kept, String(postId)), state: kept };
}

/** Every few seconds at first (most posts are done within a minute), then less often: status is limited to 30 a minute. */
function checkAfterMs(state: ProgressState): number {
  const elapsed = Date.now() - Date.parse(state.initSentAt ?? new Date().toISOString());
  return elapsed < 60_000 ? 2_000 : elapsed < 600_000 ? 15_000 : 60_000;
}
