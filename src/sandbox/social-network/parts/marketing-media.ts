import { createHash } from 'node:crypto';
import type { RouterContext } from '@koa/router';
import { graphTime, videoStatusView } from '../graph.js';
import { defineSocialPart } from '../part.js';
import { answerUnlessLost, marketingAdAccount } from '../marketing-calls.js';
import { mountCreativeContent } from './marketing-creatives.js';

interface AdImage {
  hash: string;
  adAccountId: string;
  filename: string;
  createdAt: number;
}

interface AdVideo {
  id: string;
  adAccountId: string;
  title: string | null;
  createdAt: number;
  /** When processing ends by itself; null: it waits for the people's control (`ad-videos/:id/finish`). */
  readyAt: number | null;
  /** What processing ends in. */
  outcome: 'ready' | 'error';
  finished: boolean;
}

/** A video's processing time per ad account, in seconds (null: until a person finishes it); unset, none. */
interface MarketingMedia {
  images: AdImage[];
  videos: AdVideo[];
  processingSeconds: Record<string, number | null>;
  /** Ad accounts whose next upload is done, then its answer lost (the connection drops): `adimages` or `advideos`. */
  lostAnswers: Record<string, string[]>;
}

const VIDEO_TYPES = /^video\/(mp4|quicktime)/;

/** Processing ends by itself once its time has come. */
function statusOf(video: AdVideo): 'processing' | 'ready' | 'error' {
  if (!video.finished && video.readyAt !== null && Date.now() >= video.readyAt) video.finished = true;
  return video.finished ? video.outcome : 'processing';
}

/**
 * The ad account's media libraries of the Marketing API: `POST /act_{id}/adimages` (the bytes, base64; the hash is
 * the bytes' MD5, so the same image gives the same hash) and `POST|GET /act_{id}/advideos` (from `file_url`, fetched
 * over HTTP), a video's status while it processes (`GET /{video-id}?fields=status`), and the creatives that use them
 * (marketing-creatives.ts checks what creatives show of them). People's controls: how long an
 * ad account's videos process (or until a person finishes them), a lost answer, and what the libraries hold.
 */
export const marketingMediaPart = defineSocialPart<MarketingMedia>({
  key: 'marketing_media',
  mount(router, network, restored) {
    const { state, graph, base } = network;
    const media: MarketingMedia = restored ?? { images: [], videos: [], processingSeconds: {}, lostAnswers: {} };
    mountCreativeContent(router, network, {
      hasImage: (adAccountId, hash) => media.images.some((image) => image.hash === hash && image.adAccountId === adAccountId),
      video: (id) => {
        const video = media.videos.find((one) => one.id === id);
        return video && { adAccountId: video.adAccountId, status: statusOf(video) };
      },
    });
    const people = '/_sandbox/social_network';

    const adAccountOf = (ctx: RouterContext) => marketingAdAccount(network, ctx, ctx.params.adAccountId!);
    const answer = (ctx: RouterContext, adAccountId: string, edge: string, body: unknown) =>
      answerUnlessLost(ctx, media.lostAnswers, { adAccountId, edge }, body);

    router.post(`${base}/:adAccountId/adimages`, (ctx, next) => {
      if (!ctx.params.adAccountId!.startsWith('act_')) return next();
      const account = adAccountOf(ctx);
      if (!account) return;
      const p = graph.params(ctx);
      const bytes = Buffer.from(p.bytes ?? '', 'base64');
      if (bytes.length === 0) return graph.fail(ctx, 400, 100, '(#100) Image data is missing: give bytes or a file.');
      const hash = createHash('md5').update(bytes).digest('hex');
      const filename = p.filename ?? `${hash}.jpg`;
      if (!media.images.some((image) => image.hash === hash && image.adAccountId === account.id))
        media.images.push({ hash, adAccountId: account.id, filename, createdAt: Date.now() });
      answer(ctx, account.id, 'adimages', {
        images: { [filename]: { hash, url: `https://cdn.social.example/adimages/${hash}.jpg` } },
      });
    });

    router.post(`${base}/:adAccountId/advideos`, async (ctx, next) => {
      if (!ctx.params.adAccountId!.startsWith('act_')) return next();
      const account = adAccountOf(ctx);
      if (!account) return;
      const p = graph.params(ctx);
      const response = p.file_url ? await fetch(p.file_url, { signal: AbortSignal.timeout(10_000) }).catch(() => null) : null;
      await response?.arrayBuffer().catch(() => {});
      if (!response?.ok) return graph.fail(ctx, 400, 389, '(#389) Unable to fetch video file from URL.');
      if (!VIDEO_TYPES.test(response.headers.get('content-type') ?? ''))
        return graph.fail(ctx, 400, 352, "(#352) Sorry, the video file you selected is in a format that we don't support.");
      const seconds = account.id in media.processingSeconds ? media.processingSeconds[account.id]! : 0;
      const now = Date.now();
      const video: AdVideo = {
        id: state.newId(),
        adAccountId: account.id,
        title: p.title ?? p.name ?? null,
        createdAt: now,
        readyAt: seconds === null ? null : now + seconds * 1000,
        outcome: 'ready',
        finished: false,
      };
      media.videos.push(video);
      answer(ctx, account.id, 'advideos', { id: video.id });
    });

    router.get(`${base}/:adAccountId/advideos`, (ctx, next) => {
      if (!ctx.params.adAccountId!.startsWith('act_')) return next();
      const account = adAccountOf(ctx);
      if (!account) return;
      const list = media.videos
        .filter((video) => video.adAccountId === account.id)
        .reverse()
        .map((video) =>
          graph.pick(
            { id: video.id, title: video.title ?? undefined, created_time: graphTime(video.createdAt) },
            graph.params(ctx).fields,
            'id',
          ),
        );
      ctx.body = graph.list(ctx, list, `${ctx.origin}${ctx.path}`);
    });

    /** An ad account's video: its processing status (and a frame once it has one); anything else is another part's. */
    router.get(`${base}/:id`, (ctx, next) => {
      const video = media.videos.find((one) => one.id === ctx.params.id);
      if (!video) return next();
      const token = graph.userToken(ctx);
      if (!token) return;
      if (!state.users.get(token.userId)!.adAccountIds.includes(video.adAccountId)) return graph.unknownObject(ctx, video.id);
      const status = statusOf(video);
      ctx.body = graph.pick(
        {
          id: video.id,
          title: video.title ?? undefined,
          created_time: graphTime(video.createdAt),
          picture: status === 'ready' ? `https://cdn.social.example/advideos/${video.id}.jpg` : undefined,
          status: videoStatusView(status),
        },
        graph.params(ctx).fields,
        'id',
      );
    });

    const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
    const noAdAccount = (ctx: RouterContext) => {
      ctx.status = 404;
      ctx.body = { error: 'no such ad account' };
    };

    /** How long the ad account's next videos process, in seconds; null: until a person finishes each (`ad-videos/:id/finish`). */
    router.post(`${people}/ad-video-processing`, (ctx) => {
      const input = body(ctx) as { adAccountId?: string; seconds?: number | null };
      if (!state.adAccounts.has(String(input.adAccountId))) return noAdAccount(ctx);
      media.processingSeconds[String(input.adAccountId)] = input.seconds ?? null;
      ctx.body = { adAccountId: input.adAccountId, seconds: input.seconds ?? null };
    });

    /** Processing of a video ends now, `ready` or in an `error`. */
    router.post(`${people}/ad-videos/:id/finish`, (ctx) => {
      const video = media.videos.find((one) => one.id === ctx.params.id);
      if (!video) {
        ctx.status = 404;
        ctx.body = { error: 'no such ad video' };
        return;
      }
      video.outcome = body(ctx).status === 'error' ? 'error' : 'ready';
      video.finished = true;
      ctx.body = { id: video.id, status: video.outcome };
    });

    /** The ad account's next upload to `edge` (`adimages`, `advideos`) is done, then its answer is lost. */
    router.post(`${people}/ad-media-lost-answer`, (ctx) => {
      const input = body(ctx) as { adAccountId?: string; edge?: string };
      if (!state.adAccounts.has(String(input.adAccountId))) return noAdAccount(ctx);
      (media.lostAnswers[String(input.adAccountId)] ??= []).push(String(input.edge));
      ctx.body = { lostAnswers: media.lostAnswers[String(input.adAccountId)] };
    });

    /** What the ad account's libraries hold, for tests to look at. */
    router.get(`${people}/ad-media`, (ctx) => {
      const adAccountId = String(ctx.query.adAccountId ?? '');
      if (!state.adAccounts.has(adAccountId)) return noAdAccount(ctx);
      ctx.body = {
        images: media.images.filter((image) => image.adAccountId === adAccountId),
        videos: media.videos.filter((video) => video.adAccountId === adAccountId).map((video) => ({ ...video, status: statusOf(video) })),
      };
    });

    return { state: () => media };
  },
});
