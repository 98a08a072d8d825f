import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { jsonParam } from '../marketing-rules.js';
import type { SocialNetwork } from '../part.js';

/** What the creatives need to know of the ad account's libraries (marketing-media.ts). */
export interface Libraries {
  hasImage(adAccountId: string, hash: unknown): boolean;
  /** A video of the libraries, with its processing status now. */
  video(id: unknown): { adAccountId: string; status: 'processing' | 'ready' | 'error' } | undefined;
}

type StoryData = Record<string, unknown>;
type StorySpec = { page_id?: unknown; link_data?: StoryData; photo_data?: StoryData; video_data?: StoryData };

/** The sandbox's subcode of a creative whose content the platform refuses. */
const CREATIVE_SUBCODE = 1885183;

/**
 * What the Marketing API checks of a creative's content before the marketing part keeps it (`POST
 * /act_{id}/adcreatives`, its route runs first and hands on): an `object_story_id` must be a visible post of a page
 * the person manages; an `object_story_spec` a page they manage, exactly one of `link_data`, `photo_data`,
 * `video_data`, an `image_hash` of the ad account's image library, a `video_id` of its video library that is
 * processed, and a cover for a video. Once kept, the creative shows the post that delivers it and a thumbnail.
 */
export function mountCreativeContent(router: Router, { state, graph, feed, ads, base }: SocialNetwork, library: Libraries): void {
  const refuse = (ctx: RouterContext, title: string, message: string) =>
    graph.fail(ctx, 400, 100, 'Invalid parameter', { subcode: CREATIVE_SUBCODE, user: { title, message } });

  /** Why the spec cannot be shown by this ad account for pages `pageIds`, or null. */
  const specProblem = (spec: StorySpec, adAccountId: string, pageIds: string[]): [string, string] | null => {
    if (typeof spec.page_id !== 'string' || !pageIds.includes(spec.page_id))
      return ['Page Not Usable', 'object_story_spec.page_id must be a page you manage.'];
    const data = [spec.link_data, spec.photo_data, spec.video_data].filter((one) => typeof one === 'object');
    if (data.length !== 1) return ['Story Data Required', 'object_story_spec needs exactly one of link_data, photo_data, video_data.'];
    const one = data[0]!;
    if (one.image_hash !== undefined && !library.hasImage(adAccountId, one.image_hash))
      return ['Image Not Found', `The image ${String(one.image_hash)} is not in the ad account's image library.`];
    if (!spec.video_data) return null;
    const video = library.video(one.video_id);
    if (!video || video.adAccountId !== adAccountId)
      return ['Video Not Found', "video_data.video_id is not a video of the ad account's library."];
    if (video.status !== 'ready') return ['Video Not Ready', 'The video is still being processed, or its processing failed.'];
    return one.image_url || one.image_hash ? null : ['Thumbnail Required', 'video_data needs a thumbnail: image_url or image_hash.'];
  };

  router.post(`${base}/:adAccountId/adcreatives`, async (ctx, next) => {
    const adAccountId = ctx.params.adAccountId!;
    if (!adAccountId.startsWith('act_')) return next();
    const token = graph.userToken(ctx);
    if (!token) return;
    const user = state.users.get(token.userId)!;
    // Not theirs, or no permission: the marketing part answers as it does for every edge.
    if (!user.adAccountIds.includes(adAccountId) || !state.granted(token, 'ads_management')) return next();
    const p = graph.params(ctx);
    let effective: string | null = null;
    if (p.object_story_id) {
      const post = feed.posts.get(p.object_story_id);
      if (!post || !feed.visible(post) || !user.pageIds.includes(post.pageId))
        return refuse(ctx, 'Post Not Promotable', `The post ${p.object_story_id} does not exist or is not a published post of your pages.`);
      effective = post.id;
    } else if (p.object_story_spec) {
      const spec = jsonParam<StorySpec>(p.object_story_spec);
      if (!spec) return refuse(ctx, 'Invalid Story', 'object_story_spec must be a JSON object.');
      const problem = specProblem(spec, adAccountId, user.pageIds);
      if (problem) return refuse(ctx, ...problem);
      effective = `${String(spec.page_id)}_${state.newId()}`;
    }
    await next();
    const created = ads.find(String((ctx.body as { id?: unknown } | undefined)?.id ?? ''), 'adcreative');
    if (!created || effective === null) return;
    created.fields.effective_object_story_id = effective;
    created.fields.thumbnail_url = `https://cdn.social.example/adcreatives/${created.id}.jpg`;
  });
}
