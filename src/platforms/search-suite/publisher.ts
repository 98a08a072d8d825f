import { PlatformError } from '../errors.js';
import {
  type HistoryPage,
  type HistoryQuery,
  type Published,
  type PublishContent,
  type Publisher,
  type PublishedEdit,
  PostNotFound,
  type RuleViolation,
} from '../capabilities/publishing.js';
import type { AdapterAccount } from '../types.js';
import { google } from './client.js';
import { madeSince } from '../made-since.js';

/** Business Profile local posts (v4 `accounts/{a}/locations/{l}/localPosts`): limits of the API and the product. */
const SUMMARY_LIMIT = 1500;
const PHOTO_MIN_BYTES = 10 * 1024;
const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
const PHOTO_MIN_SIDE = 250;
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png']);

interface Options {
  topicType?: 'standard' | 'event' | 'offer' | 'alert';
  languageCode?: string;
  callToAction?: { actionType: string; url?: string };
  event?: { title: string; startAt: string; endAt: string };
  offer?: { couponCode?: string; redeemUrl?: string; terms?: string };
}
interface LocalPost {
  name: string;
  summary?: string;
  topicType?: string;
  state?: string;
  searchUrl?: string;
  createTime?: string;
  media?: Array<{ googleUrl?: string; sourceUrl?: string }>;
}
interface LocalPostList {
  localPosts?: LocalPost[];
  nextPageToken?: string;
}

function googleDate(iso: string) {
  const at = new Date(iso);
  return {
    date: { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() },
    time: { hours: at.getUTCHours(), minutes: at.getUTCMinutes(), seconds: 0, nanos: 0 },
  };
}

/** Our options as a LocalPost body (enum values upper-case, the event period as Google's Date and TimeOfDay). */
export function localPostOf(content: PublishContent): Record<string, unknown> {
  const options = content.options as Options;
  const topicType = (options.topicType ?? 'standard').toUpperCase();
  const body: Record<string, unknown> = { topicType };
  if (content.text) body.summary = content.text;
  if (options.languageCode) body.languageCode = options.languageCode;
  if (options.callToAction) {
    body.callToAction = {
      actionType: options.callToAction.actionType.toUpperCase(),
      ...(options.callToAction.url ? { url: options.callToAction.url } : {}),
    };
  }
  if (options.event) {
    const start = googleDate(options.event.startAt);
    const end = googleDate(options.event.endAt);
    body.event = {
      title: options.event.title,
      schedule: { startDate: start.date, startTime: start.time, endDate: end.date, endTime: end.time },
    };
  }
  if (options.offer) {
    body.offer = {
      ...(options.offer.couponCode ? { couponCode: options.offer.couponCode } : {}),
      ...(options.offer.redeemUrl ? { redeemOnlineUrl: options.offer.redeemUrl } : {}),
      ...(options.offer.terms ? { termsConditions: options.offer.terms } : {}),
    };
  }
  if (topicType === 'ALERT') body.alertType = 'COVID_19';
  if (content.media.length > 0) body.media = content.media.map((media) => ({ mediaFormat: 'PHOTO', sourceUrl: media.url }));
  return body;
}

/**
 * `search_suite`: a local post on a business location. The API lists a location's local posts, so an attempt
 * whose answer was lost is reconciled by looking for our summary among the posts created since it started.
 */
export class SearchSuitePublisher implements Publisher {
  /** `v4Url`: the base of the v4 API (`https://mybusiness.googleapis.com/v4`). */
  constructor(private readonly v4Url: string) {}

  validate(content: PublishContent): RuleViolation[] {
    const options = content.options as Options;
    const topicType = options.topicType ?? 'standard';
    const violations: RuleViolation[] = [];
    if (!content.text && topicType !== 'event' && topicType !== 'offer') {
      violations.push({
        path: 'text',
        code: 'text_or_media_required',
        message: `search_suite ${topicType} posts need text (the post's summary).`,
      });
    }
    if (content.text && content.text.length > SUMMARY_LIMIT) {
      violations.push({
        path: 'text',
        code: 'max_length',
        limit: SUMMARY_LIMIT,
        message: `The text has ${content.text.length} characters; search_suite allows ${SUMMARY_LIMIT}.`,
      });
    }
    if (content.media.length > 1) {
      violations.push({
        path: 'mediaIds',
        code: 'media_count',
        limit: 1,
        message: `The post has ${content.media.length} media; a search_suite post takes one photo.`,
      });
    }
    content.media.forEach((media, index) => {
      const path = `mediaIds/${index}`;
      if (media.kind !== 'image' || !PHOTO_TYPES.has(media.mimeType)) {
        violations.push({ path, code: 'media_type', message: `search_suite posts take a JPEG or PNG photo, not ${media.mimeType}.` });
      } else if (media.size < PHOTO_MIN_BYTES || media.size > PHOTO_MAX_BYTES) {
        violations.push({
          path,
          code: 'media_size',
          limit: media.size < PHOTO_MIN_BYTES ? PHOTO_MIN_BYTES : PHOTO_MAX_BYTES,
          message: `The photo has ${media.size} bytes; search_suite takes 10 KB to 5 MB.`,
        });
      } else if ((media.width ?? PHOTO_MIN_SIDE) < PHOTO_MIN_SIDE || (media.height ?? PHOTO_MIN_SIDE) < PHOTO_MIN_SIDE) {
        violations.push({
          path,
          code: 'media_size',
          limit: PHOTO_MIN_SIDE,
          message: `The photo is ${media.width}×${media.height}; search_suite needs at least ${PHOTO_MIN_SIDE}×${PHOTO_MIN_SIDE}.`,
        });
      }
    });
    if ((topicType === 'event' || topicType === 'offer') && !options.event) {
      violations.push({
        path: 'platformOptions/search_suite/event',
        code: 'required_option',
        message: `search_suite ${topicType} posts need platformOptions.search_suite.event (its title and period).`,
      });
    }
    if (options.event && Date.parse(options.event.endAt) <= Date.parse(options.event.startAt)) {
      violations.push({
        path: 'platformOptions/search_suite/event/endAt',
        code: 'option_not_allowed',
        message: 'The event must end after it starts.',
      });
    }
    if (options.offer && topicType !== 'offer') {
      violations.push({
        path: 'platformOptions/search_suite/offer',
        code: 'option_not_allowed',
        message: 'platformOptions.search_suite.offer goes with topicType offer only.',
      });
    }
    if (options.callToAction && options.callToAction.actionType !== 'call' && !options.callToAction.url) {
      violations.push({
        path: 'platformOptions/search_suite/callToAction/url',
        code: 'required_option',
        message: `A ${options.callToAction.actionType} button needs a url.`,
      });
    }
    if (options.callToAction && topicType === 'offer') {
      violations.push({
        path: 'platformOptions/search_suite/callToAction',
        code: 'option_not_allowed',
        message: 'search_suite offers have no button; use offer.redeemUrl.',
      });
    }
    return violations;
  }

  async publish(account: AdapterAccount, content: PublishContent): Promise<Published> {
    const post = await google<LocalPost>(`${this.v4Url}/${account.platformAccountId}/localPosts`, account.credentials.accessToken, {
      method: 'POST',
      json: localPostOf(content),
    });
    return { platformPostId: post.name, url: post.searchUrl ?? null };
  }

  /** Our post among the location's newest local posts created since the attempt started: same summary and topic. */
  async reconcile(
    account: AdapterAccount,
    content: PublishContent,
    _state: Record<string, unknown>,
    since: Date,
  ): Promise<Published | null> {
    const wanted = localPostOf(content);
    let pageToken = '';
    for (let page = 0; page < 5; page += 1) {
      const listed = await google<LocalPostList>(
        `${this.v4Url}/${account.platformAccountId}/localPosts?pageSize=100${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`,
        account.credentials.accessToken,
      );
      const posts = listed.localPosts ?? [];
      const recent = posts.filter((post) => !post.createTime || madeSince(post.createTime, since));
      const match = recent.find((post) => (post.summary ?? null) === (wanted.summary ?? null) && post.topicType === wanted.topicType);
      if (match) return { platformPostId: match.name, url: match.searchUrl ?? null };
      // Newest first: a page that reaches before the attempt holds everything that could be ours.
      if (recent.length < posts.length || !listed.nextPageToken) return null;
      pageToken = listed.nextPageToken;
    }
    throw new PlatformError('transient', 'too many local posts since the attempt to tell whether it published; checking again later');
  }

  async delete(account: AdapterAccount, platformPostId: string): Promise<void> {
    await this.onLocalPost(account, platformPostId, '', { method: 'DELETE' });
  }

  /** A local post's summary, as the API lets an app change it (`PATCH …/localPosts/{id}?updateMask=summary`). */
  readonly editable = ['text'] as const;

  async edit(account: AdapterAccount, platformPostId: string, _state: Record<string, unknown>, { content }: PublishedEdit): Promise<void> {
    await this.onLocalPost(account, platformPostId, '?updateMask=summary', { method: 'PATCH', json: { summary: content.text ?? '' } });
  }

  /** A call on one of the location's local posts: another location's, or one gone (404), is PostNotFound. */
  private async onLocalPost(
    account: AdapterAccount,
    platformPostId: string,
    query: string,
    init: { method: 'PATCH' | 'DELETE'; json?: unknown },
  ): Promise<void> {
    // Another location's post must not be reachable through this account: the name says whose it is.
    if (!platformPostId.startsWith(`${account.platformAccountId}/localPosts/`)) throw new PostNotFound(platformPostId);
    await google(`${this.v4Url}/${platformPostId}${query}`, account.credentials.accessToken, init).catch((error: unknown) => {
      throw error instanceof PlatformError && error.details.status === 404 ? new PostNotFound(platformPostId, { status: 404 }) : error;
    });
  }

  /** The location's local posts, newest first. The API has no time filter, so `from` and `to` are applied here. */
  async history(account: AdapterAccount, query: HistoryQuery): Promise<HistoryPage> {
    const params = new URLSearchParams({ pageSize: String(Math.min(query.limit, 100)) });
    if (query.cursor) params.set('pageToken', query.cursor);
    const page = await google<LocalPostList>(
      `${this.v4Url}/${account.platformAccountId}/localPosts?${params}`,
      account.credentials.accessToken,
    );
    const listed = (page.localPosts ?? []).filter((post) => post.createTime);
    const inRange = listed.filter((post) => {
      const at = Date.parse(post.createTime!);
      return (!query.from || at >= query.from.getTime()) && (!query.to || at < query.to.getTime());
    });
    // Newest first: once a page reaches before `from`, no later page can hold anything in range.
    const pastFrom = query.from !== undefined && listed.some((post) => Date.parse(post.createTime!) < query.from!.getTime());
    return {
      posts: inRange.map((post) => ({
        platformPostId: post.name,
        text: post.summary ?? null,
        url: post.searchUrl ?? null,
        mediaUrls: (post.media ?? []).map((media) => media.googleUrl ?? media.sourceUrl).filter((url): url is string => Boolean(url)),
        publishedAt: new Date(post.createTime!),
        metrics: null,
      })),
      nextCursor: pastFrom ? null : (page.nextPageToken ?? null),
    };
  }
}
