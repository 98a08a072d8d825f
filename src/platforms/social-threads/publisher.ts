import { PlatformError } from '../errors.js';
import { classifyMetaError, type GraphErrorBody, type GraphList, nextCursorOf } from '../meta/graph.js';
import {
  type HistoryPage,
  type HistoryQuery,
  PostNotFound,
  type Published,
  type PublishContent,
  type Publisher,
  type PublishMedia,
  PublishRefused,
  type PublishProgress,
  type RuleViolation,
  StillProcessing,
} from '../capabilities/publishing.js';
import type { AdapterAccount } from '../types.js';
import type { SocialThreadsClient } from './client.js';
import { threadsViolations } from './publish-rules.js';

/**
 * What a publication has done so far, saved after every container the platform made: the carousel's item
 * containers (by media index), then the container to publish. A later call resumes from here, so no container is
 * made twice and a container that reports PUBLISHED is never published again.
 */
interface ThreadsProgress {
  items?: string[];
  containerId?: string;
  containerCreatedAt?: string;
}
interface ContainerStatus {
  id: string;
  status?: 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
  error_message?: string;
}
interface ThreadsMedia {
  id: string;
  text?: string;
  timestamp?: string;
  permalink?: string;
  media_type?: string;
  media_url?: string;
  children?: { data?: Array<{ media_url?: string }> };
}

/** The list's media_type for each container media_type: what reconcile matches on. */
const LISTED_TYPE: Record<string, string> = { TEXT: 'TEXT_POST', IMAGE: 'IMAGE', VIDEO: 'VIDEO', CAROUSEL: 'CAROUSEL_ALBUM' };
const LIST_FIELDS = 'id,text,timestamp,permalink,media_type,media_url,children{media_url}';
/** Container creation refusals about the media (fetch failed, format, size): the post's media must change. */
const MEDIA_SUBCODES = new Set([2207004, 2207026, 2207052]);
const MEDIA_CODES = new Set([352, 9004, 36000, 36001, 36003]);
/** Containers expire 24 hours after they were made; an hour of margin for the carousel still to be made and published. */
const ITEMS_REUSABLE_MS = 23 * 3600 * 1000;

/** Every few seconds at first, then about once a minute, as Meta suggests for long video processing. */
function checkAfterMs(createdAt: string | undefined): number {
  const elapsed = Date.now() - Date.parse(createdAt ?? new Date().toISOString());
  return elapsed < 60_000 ? 2_000 : elapsed < 300_000 ? 15_000 : 60_000;
}

/** One place for Threads' refusals: Graph's rules first, then what the publishing steps mean by them. */
export function threadsError(
  status: number,
  body: unknown,
  headers: Headers | undefined,
  step: 'container' | 'publish' | 'other',
): PlatformError {
  const base = classifyMetaError(status, body, headers);
  const error = (body as GraphErrorBody | undefined)?.error ?? {};
  const subcode = error.error_subcode;
  const details = { ...base.details, ...(subcode ? { platformCode: `${error.code}/${subcode}` } : {}) };
  if (base.kind !== 'invalid_request') return new PlatformError(base.kind, base.message, details);
  if (step === 'publish' && subcode === 4279009) {
    // The new container has not reached every server yet: publishing again shortly works.
    return new PlatformError('transient', base.message, details);
  }
  if (step === 'container' && ((subcode && MEDIA_SUBCODES.has(subcode)) || (error.code && MEDIA_CODES.has(error.code)))) {
    return new PublishRefused('invalid_request', base.message, 'media_invalid', details);
  }
  if (step === 'container' && /param text/i.test(base.message))
    return new PublishRefused('invalid_request', base.message, 'text_too_long', details);
  if (error.code === 506) return new PublishRefused('invalid_request', base.message, 'duplicate_content', details);
  if (error.code === 368) return new PublishRefused('invalid_request', base.message, 'policy_violation', details);
  return new PlatformError(base.kind, base.message, details);
}

/**
 * `social_threads`: the two-step container protocol (`POST /{user-id}/threads`, then `threads_publish`), one item
 * container per media for a carousel. Containers are processed asynchronously; their status decides the next step.
 */
export class SocialThreadsPublisher implements Publisher {
  constructor(private readonly client: SocialThreadsClient) {}

  validate(content: PublishContent): RuleViolation[] {
    return threadsViolations(content);
  }

  async publish(account: AdapterAccount, content: PublishContent, progress: PublishProgress): Promise<Published> {
    let state = { ...progress.state } as ThreadsProgress;
    // At most one fresh start: a container that expired (24 hours unpublished) is replaced once per call.
    for (let round = 0; round < 2; round += 1) {
      if (!state.containerId) state = await this.createContainers(account, content, state, progress);
      const container = await this.call<ContainerStatus>(account, 'GET', state.containerId!, { fields: 'status,error_message' }, 'other');
      switch (container.status) {
        case 'IN_PROGRESS':
          throw new StillProcessing(checkAfterMs(state.containerCreatedAt), 'Threads is processing the media container');
        case 'ERROR':
          // A retry starts over with new containers; this one can never be published.
          await progress.save({});
          throw new PublishRefused(
            'invalid_request',
            `Threads could not process the media: ${container.error_message ?? 'UNKNOWN'}`,
            'media_processing_failed',
            { platformCode: container.error_message ?? 'ERROR' },
          );
        case 'EXPIRED':
          state = {};
          await progress.save({});
          continue;
        case 'PUBLISHED': {
          const found = await this.findOurs(account, content, new Date(Date.parse(state.containerCreatedAt ?? new Date().toISOString())));
          if (found) return found;
          throw new PlatformError('transient', 'the container is published but the thread is not listed yet; checking again later');
        }
        default:
          return this.publishContainer(account, state);
      }
    }
    throw new PlatformError('transient', 'the new media container expired at once; trying again later');
  }

  /** A carousel's items (each saved as it is made), then the container to publish, saved before anything else happens. */
  private async createContainers(
    account: AdapterAccount,
    content: PublishContent,
    start: ThreadsProgress,
    progress: PublishProgress,
  ): Promise<ThreadsProgress> {
    // Item containers left from an earlier try expire with the day: close to it, they are made again.
    const stale = start.containerCreatedAt !== undefined && Date.now() - Date.parse(start.containerCreatedAt) > ITEMS_REUSABLE_MS;
    const state: ThreadsProgress = stale
      ? { containerCreatedAt: new Date().toISOString() }
      : { ...start, containerCreatedAt: start.containerCreatedAt ?? new Date().toISOString() };
    const options = content.options as { replyControl?: string };
    const replyControl = options.replyControl && options.replyControl !== 'everyone' ? options.replyControl : undefined;
    let params: Record<string, string | undefined>;
    if (content.media.length > 1) {
      const items = [...(state.items ?? [])];
      for (let index = items.length; index < content.media.length; index += 1) {
        items.push(
          (
            await this.call<{ id: string }>(
              account,
              'POST',
              `${account.platformAccountId}/threads`,
              { ...mediaParams(content.media[index]!), is_carousel_item: 'true' },
              'container',
            )
          ).id,
        );
        state.items = [...items];
        await progress.save({ ...state });
      }
      params = { media_type: 'CAROUSEL', children: items.join(','), text: content.text ?? undefined, reply_control: replyControl };
    } else if (content.media.length === 1) {
      params = { ...mediaParams(content.media[0]!), text: content.text ?? undefined, reply_control: replyControl };
    } else {
      params = { media_type: 'TEXT', text: content.text ?? '', reply_control: replyControl };
    }
    const created = await this.call<{ id: string }>(account, 'POST', `${account.platformAccountId}/threads`, params, 'container');
    const next = { ...state, containerId: created.id };
    await progress.save({ ...next });
    return next;
  }

  private async publishContainer(account: AdapterAccount, state: ThreadsProgress): Promise<Published> {
    const published = await this.call<{ id: string }>(
      account,
      'POST',
      `${account.platformAccountId}/threads_publish`,
      { creation_id: state.containerId },
      'publish',
    );
    // The permalink is a nicety: the thread exists whether or not it can be read back now.
    const media = await this.call<ThreadsMedia>(account, 'GET', published.id, { fields: 'permalink' }, 'other').catch(() => null);
    return { platformPostId: published.id, url: media?.permalink ?? null, state: { containerId: state.containerId } };
  }

  /** The container says PUBLISHED, or our thread is among those listed since the attempt started: it published. */
  async reconcile(
    account: AdapterAccount,
    content: PublishContent,
    state: Record<string, unknown>,
    since: Date,
  ): Promise<Published | null> {
    const { containerId } = state as ThreadsProgress;
    if (containerId) {
      const container = await this.call<ContainerStatus>(account, 'GET', containerId, { fields: 'status' }, 'other');
      // Not published: publish resumes from the saved containers.
      if (container.status !== 'PUBLISHED') return null;
      const found = await this.findOurs(account, content, since);
      if (found) return found;
      throw new PlatformError('transient', 'the container is published but the thread is not listed yet; checking again later');
    }
    return this.findOurs(account, content, since);
  }

  /** Our text and kind among the user's threads since `since` (a minute of slack for clocks), newest first. */
  private async findOurs(account: AdapterAccount, content: PublishContent, since: Date): Promise<Published | null> {
    const wantedType =
      LISTED_TYPE[content.media.length > 1 ? 'CAROUSEL' : content.media.length === 1 ? containerType(content.media[0]!) : 'TEXT'];
    let after: string | undefined;
    for (let page = 0; page < 5; page += 1) {
      const list = await this.call<GraphList<ThreadsMedia>>(
        account,
        'GET',
        `${account.platformAccountId}/threads`,
        {
          fields: 'id,text,timestamp,permalink,media_type',
          since: String(Math.floor(since.getTime() / 1000) - 60),
          limit: '100',
          after,
        },
        'other',
      );
      const match = list.data.find((thread) => (thread.text ?? null) === (content.text || null) && thread.media_type === wantedType);
      if (match) return { platformPostId: match.id, url: match.permalink ?? null };
      after = nextCursorOf(list) ?? undefined;
      if (!after) return null;
    }
    throw new PlatformError('transient', 'too many threads since the attempt to tell whether it published; checking again later');
  }

  async delete(account: AdapterAccount, platformPostId: string): Promise<void> {
    try {
      await this.call<{ success?: boolean }>(account, 'DELETE', platformPostId, {}, 'other');
    } catch (error) {
      // 100/33: no such object for this user (deleted in the app, or never theirs).
      if (error instanceof PlatformError && error.details.platformCode === '100/33') throw new PostNotFound(platformPostId, error.details);
      throw error;
    }
  }

  /** The user's threads, newest first; `from`/`to` on the platform's own since/until (seconds), metrics absent from the list. */
  async history(account: AdapterAccount, query: HistoryQuery): Promise<HistoryPage> {
    const list = await this.call<GraphList<ThreadsMedia>>(
      account,
      'GET',
      `${account.platformAccountId}/threads`,
      {
        fields: LIST_FIELDS,
        limit: String(Math.min(query.limit, 100)),
        after: query.cursor,
        since: query.from ? String(Math.floor(query.from.getTime() / 1000)) : undefined,
        until: query.to ? String(Math.ceil(query.to.getTime() / 1000)) : undefined,
      },
      'other',
    );
    const posts = list.data
      .filter((thread) => thread.timestamp)
      .map((thread) => ({
        platformPostId: thread.id,
        text: thread.text ?? null,
        url: thread.permalink ?? null,
        mediaUrls: [thread.media_url, ...(thread.children?.data ?? []).map((child) => child.media_url)].filter((url): url is string =>
          Boolean(url),
        ),
        publishedAt: new Date(thread.timestamp!.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')),
        metrics: null,
      }));
    return {
      // Whole seconds on the platform's side; `to` is exclusive on ours.
      posts: posts.filter((post) => (!query.from || post.publishedAt >= query.from) && (!query.to || post.publishedAt < query.to)),
      nextCursor: nextCursorOf(list),
    };
  }

  /** One call with the user's token, its refusals read by `threadsError` for the step it is. */
  private call<T>(
    account: AdapterAccount,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    params: Record<string, string | undefined>,
    step: 'container' | 'publish' | 'other',
  ): Promise<T> {
    return this.client.call<T>(account.credentials.accessToken, method, path, params, (status, body, headers) =>
      threadsError(status, body, headers, step),
    );
  }
}

function containerType(media: PublishMedia): 'IMAGE' | 'VIDEO' {
  return media.kind === 'video' ? 'VIDEO' : 'IMAGE';
}

function mediaParams(media: PublishMedia): Record<string, string> {
  return containerType(media) === 'VIDEO' ? { media_type: 'VIDEO', video_url: media.url } : { media_type: 'IMAGE', image_url: media.url };
}
