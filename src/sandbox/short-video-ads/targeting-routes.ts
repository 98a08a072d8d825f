import type Router from '@koa/router';
import type { ReportApi } from './report-routes.js';

/** Interest categories: top-level ones with their sub-categories, as `tool/interest_category/` lists them. */
const INTEREST_CATEGORIES = [
  { interest_category_id: '1', interest_category_name: 'Food & Beverage', level: 1, sub_category_ids: ['101', '102'] },
  { interest_category_id: '101', interest_category_name: 'Coffee', level: 2, sub_category_ids: [] },
  { interest_category_id: '102', interest_category_name: 'Tea', level: 2, sub_category_ids: [] },
  { interest_category_id: '2', interest_category_name: 'Travel', level: 1, sub_category_ids: ['201'] },
  { interest_category_id: '201', interest_category_name: 'Outdoor Travel', level: 2, sub_category_ids: [] },
  { interest_category_id: '3', interest_category_name: 'Sports & Outdoors', level: 1, sub_category_ids: ['301'] },
  { interest_category_id: '301', interest_category_name: 'Running', level: 2, sub_category_ids: [] },
];
/** Action categories: what people did with videos, creators and hashtags (`tool/action_category/`). */
const ACTION_CATEGORIES = [
  { action_category_id: '4001', name: 'Video interactions', action_scene: 'VIDEO_RELATED', level: 1, sub_category_ids: ['4101', '4102'] },
  { action_category_id: '4101', name: 'Food & Beverage videos', action_scene: 'VIDEO_RELATED', level: 2, sub_category_ids: [] },
  { action_category_id: '4102', name: 'Travel videos', action_scene: 'VIDEO_RELATED', level: 2, sub_category_ids: [] },
  { action_category_id: '5001', name: 'Creator interactions', action_scene: 'CREATOR_RELATED', level: 1, sub_category_ids: ['5101'] },
  { action_category_id: '5101', name: 'Followed food creators', action_scene: 'CREATOR_RELATED', level: 2, sub_category_ids: [] },
];
/** People the platform reaches in each of the locations ads may target (`tool/region/`'s GeoNames ids). */
const PEOPLE: Record<string, number> = {
  '6252001': 150_000_000,
  '6251999': 20_000_000,
  '2635167': 30_000_000,
  '2921044': 25_000_000,
  '3017382': 22_000_000,
  '3175395': 20_000_000,
  '2510769': 18_000_000,
  '2782113': 3_000_000,
  '1861060': 25_000_000,
  '2077456': 9_000_000,
  '5332921': 20_000_000,
  '2951839': 4_000_000,
};

/**
 * The Business API's targeting tools beside `tool/region/` (the campaign tree's): interest and action categories,
 * and the audience size estimate of a spec (its locations' people, narrowed by age groups, gender and a share for
 * categories; an unknown location or category id is 40002).
 */
export function mountTargetingTools(router: Router, api: ReportApi, base: string): void {
  router.get(`${base}/tool/interest_category/`, (ctx) => {
    if (!api.advertiser(ctx, ctx.query.advertiser_id)) return;
    api.answer(ctx, 0, 'OK', { interest_categories: INTEREST_CATEGORIES });
  });

  router.get(`${base}/tool/action_category/`, (ctx) => {
    if (!api.advertiser(ctx, ctx.query.advertiser_id)) return;
    api.answer(ctx, 0, 'OK', { action_categories: ACTION_CATEGORIES });
  });

  router.post(`${base}/ad/audience_size/estimate/`, (ctx) => {
    const body = (ctx.request.body ?? {}) as {
      advertiser_id?: string;
      location_ids?: string[];
      age_groups?: string[];
      gender?: string;
      interest_category_ids?: string[];
      action_category_ids?: string[];
    };
    if (!api.advertiser(ctx, body.advertiser_id)) return;
    const locations = body.location_ids ?? [];
    if (locations.length === 0) return api.answer(ctx, 40002, 'location_ids: at least one location is required.');
    const unknownPlace = locations.find((id) => PEOPLE[id] === undefined);
    if (unknownPlace) return api.answer(ctx, 40002, `location_ids: ${unknownPlace} is not a valid location id.`);
    const interests = body.interest_category_ids ?? [];
    const actions = body.action_category_ids ?? [];
    const unknownCategory =
      interests.find((id) => !INTEREST_CATEGORIES.some((c) => c.interest_category_id === id)) ??
      actions.find((id) => !ACTION_CATEGORIES.some((c) => c.action_category_id === id));
    if (unknownCategory) return api.answer(ctx, 40002, `interest_category_ids: ${unknownCategory} is not a valid category id.`);
    let people = locations.reduce((sum, id) => sum + PEOPLE[id]!, 0);
    people *= Math.min(1, (body.age_groups?.length || 6) / 6);
    if (body.gender && body.gender !== 'GENDER_UNLIMITED') people /= 2;
    if (interests.length + actions.length > 0) people *= Math.min(1, 0.1 * (interests.length + actions.length));
    const rounded = (value: number) => Math.round(value / 1000) * 1000;
    api.answer(ctx, 0, 'OK', { user_count: { lower_end: rounded(people * 0.8), upper_end: rounded(people * 1.2) } });
  });
}
