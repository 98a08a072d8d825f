import { defineSocialPart } from '../part.js';

/** Places the Graph's location search finds: countries by code, then regions, cities and postal codes with their keys. */
const PLACES = [
  { key: 'DE', name: 'Germany', type: 'country', country_code: 'DE', country_name: 'Germany', people: 61_000_000 },
  { key: 'AT', name: 'Austria', type: 'country', country_code: 'AT', country_name: 'Austria', people: 7_400_000 },
  { key: 'US', name: 'United States', type: 'country', country_code: 'US', country_name: 'United States', people: 250_000_000 },
  { key: 'JP', name: 'Japan', type: 'country', country_code: 'JP', country_name: 'Japan', people: 90_000_000 },
  { key: '3856', name: 'Hamburg', type: 'region', country_code: 'DE', country_name: 'Germany', people: 1_600_000 },
  { key: '3847', name: 'Berlin', type: 'region', country_code: 'DE', country_name: 'Germany', people: 3_100_000 },
  { key: '3844', name: 'Bavaria', type: 'region', country_code: 'DE', country_name: 'Germany', people: 11_000_000 },
  { key: '3855', name: 'North Rhine-Westphalia', type: 'region', country_code: 'DE', country_name: 'Germany', people: 15_000_000 },
  {
    key: '2523556',
    name: 'Hamburg',
    type: 'city',
    country_code: 'DE',
    country_name: 'Germany',
    region: 'Hamburg',
    region_id: 3856,
    people: 1_500_000,
  },
  {
    key: '2528034',
    name: 'Hamm',
    type: 'city',
    country_code: 'DE',
    country_name: 'Germany',
    region: 'North Rhine-Westphalia',
    region_id: 3855,
    people: 150_000,
  },
  {
    key: '2522871',
    name: 'Berlin',
    type: 'city',
    country_code: 'DE',
    country_name: 'Germany',
    region: 'Berlin',
    region_id: 3847,
    people: 3_000_000,
  },
  {
    key: '2525297',
    name: 'Munich',
    type: 'city',
    country_code: 'DE',
    country_name: 'Germany',
    region: 'Bavaria',
    region_id: 3844,
    people: 1_300_000,
  },
  {
    key: 'DE:10115',
    name: '10115',
    type: 'zip',
    country_code: 'DE',
    country_name: 'Germany',
    region: 'Berlin',
    region_id: 3847,
    people: 20_000,
  },
  {
    key: 'DE:20095',
    name: '20095',
    type: 'zip',
    country_code: 'DE',
    country_name: 'Germany',
    region: 'Hamburg',
    region_id: 3856,
    people: 3_000,
  },
];

/** Interests and behaviours with Meta's audience-size bounds. */
const INTERESTS = [
  { id: '6003107902433', name: 'Coffee', path: ['Interests', 'Food and drink', 'Beverages', 'Coffee'], size: 448_000_000 },
  { id: '6003240742699', name: 'Coffeehouse', path: ['Interests', 'Food and drink', 'Restaurants', 'Coffeehouse'], size: 121_000_000 },
  { id: '6003115137203', name: 'Espresso', path: ['Interests', 'Food and drink', 'Beverages', 'Espresso'], size: 19_500_000 },
  { id: '6003346311730', name: 'Tea', path: ['Interests', 'Food and drink', 'Beverages', 'Tea'], size: 260_000_000 },
  { id: '6003397425735', name: 'Running', path: ['Interests', 'Fitness and wellness', 'Running'], size: 310_000_000 },
  { id: '6003430696269', name: 'Travel', path: ['Interests', 'Hobbies and activities', 'Travel'], size: 1_100_000_000 },
];
const BEHAVIORS = [
  { id: '6002714895372', name: 'Frequent travellers', path: ['Behaviors', 'Travel', 'Frequent travellers'], size: 163_000_000 },
  {
    id: '6022788483583',
    name: 'Frequent international travellers',
    path: ['Behaviors', 'Travel', 'Frequent international travellers'],
    size: 241_000_000,
  },
  {
    id: '6002714898572',
    name: 'Small business owners',
    path: ['Behaviors', 'Digital activities', 'Small business owners'],
    size: 86_000_000,
  },
  {
    id: '6003808923172',
    name: 'Early technology adopters',
    path: ['Behaviors', 'Digital activities', 'Early technology adopters'],
    size: 54_000_000,
  },
  {
    id: '6004382299972',
    name: 'Facebook access (mobile): smartphones and tablets',
    path: ['Behaviors', 'Mobile device user'],
    size: 2_300_000_000,
  },
];

/** Meta's bounds around an estimate: about 15 % either side, rounded as its dialogs show them. */
const bounds = (size: number) => ({
  lower: Math.round((size * 0.85) / 100) * 100,
  upper: Math.round((size * 1.15) / 100) * 100,
});
/** The platform's languages by its own locale keys (`GET /search?type=adlocale`), as targeting's `locales` names them. */
const LOCALES = [
  { key: 6, name: 'English (US)' },
  { key: 24, name: 'English (UK)' },
  { key: 5, name: 'German' },
  { key: 9, name: 'French (France)' },
  { key: 23, name: 'Spanish' },
  { key: 10, name: 'Italian' },
];

const option = (item: (typeof INTERESTS)[number]) => {
  const { lower, upper } = bounds(item.size);
  return { id: item.id, name: item.name, path: item.path, audience_size_lower_bound: lower, audience_size_upper_bound: upper };
};

interface Spec {
  geo_locations?: {
    countries?: string[];
    regions?: Array<{ key: string }>;
    cities?: Array<{ key: string }>;
    zips?: Array<{ key: string }>;
  };
  age_min?: number;
  age_max?: number;
  genders?: number[];
  interests?: Array<{ id: string }>;
  behaviors?: Array<{ id: string }>;
}

/**
 * The Marketing API's targeting searches (`GET /search?type=adgeolocation|adinterest|adTargetingCategory`) over a
 * small fixed catalogue, and an ad account's `delivery_estimate` for a spec: the people of its places, narrowed by
 * age, gender and (as a share of everyone) its interests and behaviours; an unknown key or id is Meta's (#100).
 */
export const marketingTargetingPart = defineSocialPart({
  key: 'marketing_targeting',
  mount(router, { state, graph, base }) {
    router.get(`${base}/search`, (ctx) => {
      const token = graph.userToken(ctx);
      if (!token) return;
      const p = graph.params(ctx);
      const q = (p.q ?? '').toLowerCase();
      if (p.type === 'adgeolocation') {
        const types = p.location_types ? (JSON.parse(p.location_types) as string[]) : ['country', 'region', 'city', 'zip'];
        const found = PLACES.filter(
          (place) =>
            types.includes(place.type) &&
            (!p.country_code || place.country_code === p.country_code) &&
            (place.name.toLowerCase().startsWith(q) || place.key.toLowerCase() === q),
        ).map(({ people: _, ...place }) => ({ ...place, supports_region: true, supports_city: true }));
        ctx.body = graph.list(ctx, found, `${ctx.origin}${ctx.path}`);
        return;
      }
      if (p.type === 'adinterest') {
        const found = INTERESTS.filter((interest) => interest.name.toLowerCase().includes(q)).map(option);
        ctx.body = graph.list(ctx, found, `${ctx.origin}${ctx.path}`);
        return;
      }
      if (p.type === 'adlocale') {
        ctx.body = graph.list(
          ctx,
          LOCALES.filter((locale) => locale.name.toLowerCase().includes(q)),
          `${ctx.origin}${ctx.path}`,
        );
        return;
      }
      if (p.type === 'adTargetingCategory' && p.class === 'behaviors') {
        ctx.body = { data: BEHAVIORS.map((behavior) => ({ ...option(behavior), type: 'behaviors' })) };
        return;
      }
      graph.fail(ctx, 400, 100, '(#100) Param type must be one of {adgeolocation, adinterest, adlocale, adTargetingCategory, …}');
    });

    router.get(`${base}/:id/delivery_estimate`, (ctx) => {
      const token = graph.userToken(ctx);
      if (!token) return;
      const id = ctx.params.id!;
      if (!state.adAccounts.has(id) || !state.users.get(token.userId)!.adAccountIds.includes(id)) return graph.unknownObject(ctx, id);
      let spec: Spec;
      try {
        spec = JSON.parse(graph.params(ctx).targeting_spec ?? '') as Spec;
      } catch {
        return graph.fail(ctx, 400, 100, '(#100) targeting_spec must be a JSON object');
      }
      const geo = spec.geo_locations ?? {};
      const keys = [
        ...(geo.countries ?? []),
        ...[...(geo.regions ?? []), ...(geo.cities ?? []), ...(geo.zips ?? [])].map((place) => place.key),
      ];
      if (keys.length === 0) return graph.fail(ctx, 400, 100, '(#100) Targeting spec must specify at least one location in geo_locations');
      const unknownPlace = keys.find((key) => !PLACES.some((place) => place.key === key));
      if (unknownPlace) return graph.fail(ctx, 400, 100, `(#100) Invalid location key: ${unknownPlace}`, { subcode: 1487756 });
      const picked = [...(spec.interests ?? []), ...(spec.behaviors ?? [])];
      const known = [...INTERESTS, ...BEHAVIORS];
      const unknownId = picked.find(({ id }) => !known.some((item) => item.id === id));
      if (unknownId) return graph.fail(ctx, 400, 100, `(#100) Invalid interest or behavior id: ${unknownId.id}`, { subcode: 1487079 });
      let people = keys.reduce((sum, key) => sum + PLACES.find((place) => place.key === key)!.people, 0);
      people *= ((spec.age_max ?? 65) - (spec.age_min ?? 18) + 1) / 48;
      if (spec.genders?.length === 1) people /= 2;
      if (picked.length > 0)
        people *= Math.min(1, picked.reduce((sum, { id }) => sum + known.find((item) => item.id === id)!.size, 0) / 2_900_000_000);
      const { lower, upper } = bounds(Math.floor(people));
      ctx.body = {
        data: [
          { estimate_mau_lower_bound: lower, estimate_mau_upper_bound: upper, estimate_dau: Math.floor(lower / 3), estimate_ready: true },
        ],
      };
    });
  },
});
