import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { ReportApi } from './report-routes.js';

interface Audience {
  id: string;
  advertiserId: string;
  name: string;
  type: 'Customer File' | 'Lookalike' | 'Website Traffic';
  createdAt: number;
  updatedAt: number;
  /** People received from files (appended less removed). */
  people: number;
  files: number;
  lookalikeSpec: Record<string, unknown> | null;
  ruleSpec: Record<string, unknown> | null;
  /** When calculation ends by itself; null: when a person finishes it; 0: done. */
  readyAt: number | null;
}

/** An uploaded customer file: its rows counted, kept until an audience takes it. */
interface CustomerFile {
  advertiserId: string;
  rows: number;
  types: string[];
}

/** What the audiences keep across a restart. */
export interface AudiencesState {
  audiences: Audience[];
  files: Record<string, CustomerFile>;
  calculatingSeconds: Record<string, number | null>;
  nextId: number;
}

const ID_TYPES = ['EMAIL_SHA256', 'PHONE_SHA256'];
const SHA256 = /^[0-9a-f]{64}$/;
/** The share of a file's people the platform matches; a lookalike's source needs this many matched. */
const MATCH_RATE = 0.6;
const LOOKALIKE_SOURCE_MINIMUM = 100;
const LOOKALIKE_PEOPLE: Record<string, number> = { NARROW: 800_000, BALANCED: 3_000_000, BROAD: 9_000_000 };
const FILTER_OPERATORS = ['CONTAINS', 'NOT_CONTAINS', 'EQUALS', 'NOT_EQUALS', 'STARTS_WITH', 'ENDS_WITH', 'GREATER_THAN', 'LESS_THAN'];

const time = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const calculating = (audience: Audience) => audience.readyAt !== 0 && (audience.readyAt === null || Date.now() < audience.readyAt);

function cover(audience: Audience): number {
  if (audience.type === 'Customer File') return Math.floor(audience.people * MATCH_RATE);
  if (audience.type === 'Website Traffic') return 4800;
  const countries = ((audience.lookalikeSpec?.location_ids as unknown[] | undefined) ?? []).length || 1;
  return LOOKALIKE_PEOPLE[String(audience.lookalikeSpec?.audience_size)]! * countries;
}

/**
 * The Business API's DMP audiences: customer files uploaded hashed (`file/upload/`, multipart, with the file's MD5
 * as `file_signature`; a `MULTIPLE_TYPES` CSV whose header names its id types, each value a SHA-256 digest),
 * audiences created from them and updated with more (`create/`, `update/` APPEND|REMOVE), lookalikes (a source
 * calculated and of at least 100 matched people, else 40002) and pixel-rule audiences; `list/`, `get/`, `delete/`.
 * People's controls: how long audiences calculate (or until finished), finishing one, and what an advertiser holds.
 */
export function mountAudiences(router: Router, api: ReportApi, base: string, restored: AudiencesState | undefined) {
  const kept: AudiencesState = restored ?? { audiences: [], files: {}, calculatingSeconds: {}, nextId: 7_100_000_000_000_000 };
  const people = '/_sandbox/short_video_ads';
  const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
  const refuse = (ctx: RouterContext, message: string) => api.answer(ctx, 40002, message);
  const newId = () => String((kept.nextId += 1));

  /** The advertiser's audience the body or query names, or the refusal written. */
  const audienceOf = (ctx: RouterContext, advertiserId: string, id: unknown): Audience | null => {
    const audience = kept.audiences.find((one) => one.id === String(id) && one.advertiserId === advertiserId);
    if (!audience) refuse(ctx, `custom_audience_id: The audience ${String(id)} does not exist.`);
    return audience ?? null;
  };
  const make = (advertiserId: string, name: string, type: Audience['type'], extra: Partial<Audience> = {}): Audience => {
    const seconds = advertiserId in kept.calculatingSeconds ? kept.calculatingSeconds[advertiserId]! : 0;
    const now = Date.now();
    const audience: Audience = {
      id: newId(),
      advertiserId,
      name,
      type,
      createdAt: now,
      updatedAt: now,
      people: 0,
      files: 0,
      lookalikeSpec: null,
      ruleSpec: null,
      readyAt: seconds === null ? null : seconds === 0 ? 0 : now + seconds * 1000,
      ...extra,
    };
    kept.audiences.push(audience);
    return audience;
  };
  /** The files a request names, all the advertiser's (taken: each applies once); or the refusal written. */
  const takeFiles = (ctx: RouterContext, advertiserId: string, paths: unknown): CustomerFile[] | null => {
    const list = Array.isArray(paths) ? paths.map(String) : [];
    const files = list.map((path) => kept.files[path]);
    if (list.length === 0 || files.some((file) => !file || file.advertiserId !== advertiserId)) {
      refuse(ctx, 'file_paths: Some files do not exist or have been used.');
      return null;
    }
    for (const path of list) delete kept.files[path];
    return files as CustomerFile[];
  };
  const view = (audience: Audience) => ({
    audience_id: audience.id,
    name: audience.name,
    audience_type: audience.type,
    cover_num: calculating(audience) ? 0 : cover(audience),
    is_valid: !calculating(audience),
    is_expired: false,
    is_creator: true,
    calculate_type: audience.type === 'Customer File' ? 'MULTIPLE_TYPES' : undefined,
    create_time: time(audience.createdAt),
    update_time: time(audience.updatedAt),
    ...(audience.lookalikeSpec ? { lookalike_spec: audience.lookalikeSpec } : {}),
    ...(audience.ruleSpec ? { rule_spec: audience.ruleSpec } : {}),
  });

  router.post(`${base}/dmp/custom_audience/file/upload/`, (ctx) => {
    const input = body(ctx);
    if (!api.advertiser(ctx, input.advertiser_id)) return;
    const file = (ctx.request as { files?: Record<string, { filepath: string } | Array<{ filepath: string }>> }).files?.file;
    const one = Array.isArray(file) ? file[0] : file;
    if (!one) return refuse(ctx, 'file: A file is required.');
    const text = readFileSync(one.filepath, 'utf8');
    if (createHash('md5').update(text).digest('hex') !== input.file_signature)
      return refuse(ctx, 'file_signature: The signature does not match the file.');
    if (input.calculate_type !== 'MULTIPLE_TYPES') return refuse(ctx, 'calculate_type: Only MULTIPLE_TYPES is supported for this file.');
    const [header = '', ...rows] = text.split('\n').filter((line) => line !== '');
    const types = header.split(',');
    if (types.some((type) => !ID_TYPES.includes(type)))
      return refuse(ctx, `file: The header must name id types of ${ID_TYPES.join(', ')}.`);
    const bad = rows.findIndex((row) => {
      const values = row.split(',');
      return values.length !== types.length || values.some((value) => value !== '' && !SHA256.test(value)) || values.every((v) => v === '');
    });
    if (bad >= 0) return refuse(ctx, `file: Line ${bad + 2} is not a row of SHA-256 digests.`);
    const path = `dmp/${newId()}.csv`;
    kept.files[path] = { advertiserId: String(input.advertiser_id), rows: rows.length, types };
    api.answer(ctx, 0, 'OK', { file_path: path });
  });

  router.post(`${base}/dmp/custom_audience/create/`, (ctx) => {
    const input = body(ctx);
    if (!api.advertiser(ctx, input.advertiser_id)) return;
    if (!input.custom_audience_name) return refuse(ctx, 'custom_audience_name: Field is required.');
    const files = takeFiles(ctx, String(input.advertiser_id), input.file_paths);
    if (!files) return;
    const people = files.reduce((sum, file) => sum + file.rows, 0);
    const audience = make(String(input.advertiser_id), String(input.custom_audience_name), 'Customer File', {
      people,
      files: files.length,
    });
    api.answer(ctx, 0, 'OK', { custom_audience_id: audience.id });
  });

  router.post(`${base}/dmp/custom_audience/lookalike/create/`, (ctx) => {
    const input = body(ctx);
    if (!api.advertiser(ctx, input.advertiser_id)) return;
    const spec = (input.lookalike_spec ?? {}) as Record<string, unknown>;
    const source = audienceOf(ctx, String(input.advertiser_id), spec.source_audience_id);
    if (!source) return;
    if (source.type === 'Lookalike') return refuse(ctx, 'source_audience_id: A lookalike cannot be the source audience.');
    if (calculating(source)) return refuse(ctx, 'source_audience_id: The source audience is still calculating. Try again later.');
    if (cover(source) < LOOKALIKE_SOURCE_MINIMUM)
      return refuse(ctx, `source_audience_id: The source audience is too small: at least ${LOOKALIKE_SOURCE_MINIMUM} people are needed.`);
    if (!Array.isArray(spec.location_ids) || spec.location_ids.length === 0) return refuse(ctx, 'location_ids: Field is required.');
    if (!(String(spec.audience_size) in LOOKALIKE_PEOPLE)) return refuse(ctx, 'audience_size: Must be NARROW, BALANCED or BROAD.');
    const audience = make(String(input.advertiser_id), String(input.custom_audience_name ?? 'Lookalike'), 'Lookalike', {
      lookalikeSpec: spec,
    });
    api.answer(ctx, 0, 'OK', { custom_audience_id: audience.id });
  });

  /** Why a rule spec is refused, or null. */
  const ruleProblem = (spec: unknown): string | null => {
    const rules = (spec as { inclusion_rule_set?: { rules?: unknown } } | undefined)?.inclusion_rule_set?.rules;
    if (!Array.isArray(rules) || rules.length === 0) return 'rule_spec: inclusion_rule_set.rules is required.';
    for (const rule of rules as Array<Record<string, unknown>>) {
      if (!Array.isArray(rule.event_source_ids) || rule.event_source_ids.length === 0) return 'rule_spec: event_source_ids is required.';
      const days = Number(rule.retention_days);
      if (!Number.isInteger(days) || days < 1 || days > 180) return 'rule_spec: retention_days must be 1 to 180.';
      const filters = (rule.filter_set as { filters?: Array<{ operator?: string }> } | undefined)?.filters ?? [];
      if (filters.some((filter) => !FILTER_OPERATORS.includes(String(filter.operator)))) return 'rule_spec: A filter operator is invalid.';
    }
    return null;
  };

  router.post(`${base}/dmp/custom_audience/rule/create/`, (ctx) => {
    const input = body(ctx);
    if (!api.advertiser(ctx, input.advertiser_id)) return;
    const problem = ruleProblem(input.rule_spec);
    if (problem) return refuse(ctx, problem);
    const audience = make(String(input.advertiser_id), String(input.custom_audience_name ?? 'Website'), 'Website Traffic', {
      ruleSpec: input.rule_spec as Record<string, unknown>,
    });
    api.answer(ctx, 0, 'OK', { custom_audience_id: audience.id });
  });

  router.post(`${base}/dmp/custom_audience/rule/update/`, (ctx) => {
    const input = body(ctx);
    if (!api.advertiser(ctx, input.advertiser_id)) return;
    const audience = audienceOf(ctx, String(input.advertiser_id), input.custom_audience_id);
    if (!audience) return;
    const problem = ruleProblem(input.rule_spec);
    if (problem) return refuse(ctx, problem);
    audience.ruleSpec = input.rule_spec as Record<string, unknown>;
    audience.updatedAt = Date.now();
    api.answer(ctx, 0, 'OK', {});
  });

  router.post(`${base}/dmp/custom_audience/update/`, (ctx) => {
    const input = body(ctx);
    if (!api.advertiser(ctx, input.advertiser_id)) return;
    const audience = audienceOf(ctx, String(input.advertiser_id), input.custom_audience_id);
    if (!audience) return;
    if (input.file_paths !== undefined) {
      if (audience.type !== 'Customer File') return refuse(ctx, 'file_paths: Only customer file audiences take files.');
      const files = takeFiles(ctx, audience.advertiserId, input.file_paths);
      if (!files) return;
      const rows = files.reduce((sum, file) => sum + file.rows, 0);
      audience.people = Math.max(0, audience.people + (input.action === 'REMOVE' ? -rows : rows));
      audience.files += files.length;
    }
    if (input.custom_audience_name !== undefined) audience.name = String(input.custom_audience_name);
    audience.updatedAt = Date.now();
    api.answer(ctx, 0, 'OK', {});
  });

  router.post(`${base}/dmp/custom_audience/delete/`, (ctx) => {
    const input = body(ctx);
    if (!api.advertiser(ctx, input.advertiser_id)) return;
    const ids = Array.isArray(input.custom_audience_ids) ? input.custom_audience_ids.map(String) : [];
    const mine = kept.audiences.filter((one) => one.advertiserId === String(input.advertiser_id) && ids.includes(one.id));
    if (mine.length !== ids.length) return refuse(ctx, 'custom_audience_ids: Some audiences do not exist.');
    kept.audiences = kept.audiences.filter((one) => !mine.includes(one));
    api.answer(ctx, 0, 'OK', {});
  });

  router.get(`${base}/dmp/custom_audience/list/`, (ctx) => {
    const q = ctx.query as Record<string, string>;
    if (!api.advertiser(ctx, q.advertiser_id)) return;
    const page = Math.max(Number(q.page ?? 1) || 1, 1);
    const size = Math.min(Math.max(Number(q.page_size ?? 10) || 10, 1), 100);
    const all = kept.audiences.filter((one) => one.advertiserId === q.advertiser_id).reverse();
    api.answer(ctx, 0, 'OK', {
      list: all.slice((page - 1) * size, page * size).map(view),
      page_info: { page, page_size: size, total_number: all.length, total_page: Math.ceil(all.length / size) },
    });
  });

  router.get(`${base}/dmp/custom_audience/get/`, (ctx) => {
    const q = ctx.query as Record<string, string>;
    if (!api.advertiser(ctx, q.advertiser_id)) return;
    let ids: unknown;
    try {
      ids = JSON.parse(q.custom_audience_ids ?? '');
    } catch {
      ids = null;
    }
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100)
      return refuse(ctx, 'custom_audience_ids: Must be a JSON array of 1 to 100 ids.');
    const list = ids
      .map((id) => kept.audiences.find((one) => one.id === String(id) && one.advertiserId === q.advertiser_id))
      .filter((one): one is Audience => one !== undefined)
      .map((one) => ({ audience_details: view(one) }));
    api.answer(ctx, 0, 'OK', { list });
  });

  /** How long the advertiser's next audiences calculate, in seconds; null: until a person finishes each. */
  router.post(`${people}/audience-populating`, (ctx) => {
    const input = body(ctx) as { adAccountId?: string; seconds?: number | null };
    kept.calculatingSeconds[String(input.adAccountId)] = input.seconds ?? null;
    ctx.body = { adAccountId: input.adAccountId, seconds: input.seconds ?? null };
  });

  router.post(`${people}/audiences/:id/finish`, (ctx) => {
    const audience = kept.audiences.find((one) => one.id === ctx.params.id);
    if (!audience) {
      ctx.status = 404;
      ctx.body = { error: 'no such audience' };
      return;
    }
    audience.readyAt = 0;
    ctx.body = { id: audience.id, status: 'ready' };
  });

  router.get(`${people}/audiences`, (ctx) => {
    const advertiserId = String(ctx.query.adAccountId ?? '');
    ctx.body = {
      audiences: kept.audiences
        .filter((one) => one.advertiserId === advertiserId)
        .map((one) => ({ id: one.id, name: one.name, subtype: one.type, people: one.people, files: one.files })),
    };
  });

  return { state: () => kept };
}
