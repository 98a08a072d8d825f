import { createHash } from 'node:crypto';
import { AdObjectNotFound, AdRefused } from '../capabilities/ad-campaigns.js';
import {
  type AdAudiences,
  type AudienceChange,
  type AudienceInput,
  AudienceRefused,
  type AudienceRule,
  type AudienceSubtype,
  type AudienceUpload,
  type BatchReceipt,
  type HashedRow,
  type PlatformAudience,
} from '../capabilities/ad-audiences.js';
import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';
import type { BusinessApiClient } from './client.js';

/** An audience as `dmp/custom_audience/list|get` give it. */
interface Listed {
  audience_id: string;
  name?: string;
  audience_type?: string;
  cover_num?: number;
  is_valid?: boolean;
  is_expired?: boolean;
  is_creator?: boolean;
  create_time?: string;
  update_time?: string;
  calculate_type?: string;
  lookalike_spec?: { source_audience_id?: string; location_ids?: string[]; audience_size?: string };
  rule_spec?: TikTokRule;
  retention_in_days?: number;
  description?: string;
}
interface TikTokRule {
  inclusion_rule_set: {
    operator: 'OR';
    rules: Array<{
      event_source_ids: string[];
      retention_days: number;
      filter_set: { operator: 'AND' | 'OR'; filters: Array<{ field: string; operator: string; value: string }> };
    }>;
  };
}

/** The customer file's id types: one column each in a `MULTIPLE_TYPES` file, its header naming them. */
const FILE_KEYS = { email: 'EMAIL_SHA256', phone: 'PHONE_SHA256' } as const;
const TYPES: Record<string, AudienceSubtype> = { 'Customer File': 'CUSTOM', Lookalike: 'LOOKALIKE', 'Website Traffic': 'WEBSITE' };
/** Lookalike sizes by the share of the population: the platform has three steps, not a ratio. */
const SIZE_STEPS: Array<[number, string, number]> = [
  [0.02, 'NARROW', 0.01],
  [0.06, 'BALANCED', 0.05],
  [1, 'BROAD', 0.1],
];
/** 40002 with these words: the source of a lookalike (fewer than 100 people; still calculating). */
const TOO_SMALL = /source audience .*(too small|at least 100)/i;
const NOT_READY = /source audience .*(calculat|not ready|processing)/i;

const ours = (field: string) => field.toLowerCase();
const theirs = (field: string) => field.toUpperCase();

/**
 * Custom audiences over the Business API's DMP (`/dmp/custom_audience/…`): customer files uploaded hashed
 * (`file/upload/` → a `file_path`), an audience created from them (`create/`) and changed with more
 * (`update/ action=APPEND|REMOVE`), lookalikes (`lookalike/create/`) and pixel-rule audiences (`rule/create/`).
 * Sizes are one estimate (`cover_num`), given as a range of one.
 */
export class ShortVideoAdsAdAudiences implements AdAudiences {
  readonly personKeys = FILE_KEYS;
  readonly batchSize = 10_000;
  readonly createsWithPeople = true;

  constructor(
    private readonly client: BusinessApiClient,
    /** The advertiser's countries: location id → ISO code (the campaign tree's `tool/region/`). */
    private readonly countryIds: (account: AdapterAccount) => Promise<Map<string, string>>,
  ) {}

  async create(account: AdapterAccount, input: AudienceInput, firstRows: HashedRow[] = []) {
    switch (input.subtype) {
      case 'CUSTOM': {
        if (firstRows.length === 0)
          throw new AdRefused('users', 'The platform creates a customer file audience from a first file: give its first users.');
        const keys = keysOf(firstRows);
        const path = await this.file(account, firstRows, keys);
        const made = await this.send<{ custom_audience_id: string }>(account, '/dmp/custom_audience/create/', {
          custom_audience_name: input.name,
          file_paths: [path],
          calculate_type: 'MULTIPLE_TYPES',
        });
        return { id: String(made.custom_audience_id), first: { received: firstRows.length, invalid: 0 } };
      }
      case 'LOOKALIKE': {
        const step = SIZE_STEPS.find(([ratio]) => input.lookalikeSpec.ratio <= ratio)!;
        const byCode = new Map([...(await this.countryIds(account))].map(([id, code]) => [code, id]));
        const unknown = input.lookalikeSpec.countries.filter((code) => !byCode.has(code));
        if (unknown.length)
          throw new AdRefused('lookalikeSpec.countries', `The platform has no lookalike location for ${unknown.join(', ')}.`);
        const made = await this.send<{ custom_audience_id: string }>(account, '/dmp/custom_audience/lookalike/create/', {
          custom_audience_name: input.name,
          lookalike_spec: {
            source_audience_id: input.lookalikeSpec.originAudienceId,
            location_ids: input.lookalikeSpec.countries.map((code) => byCode.get(code)!),
            audience_size: step[1],
            include_source: false,
            mobile_os: 'ALL',
            placements: ['TIKTOK'],
          },
        });
        return { id: String(made.custom_audience_id), first: null };
      }
      case 'WEBSITE': {
        const made = await this.send<{ custom_audience_id: string }>(account, '/dmp/custom_audience/rule/create/', {
          custom_audience_name: input.name,
          audience_type: 'PIXEL',
          rule_spec: tiktokRule(input.rule, input.pixelId, input.retentionDays),
        });
        return { id: String(made.custom_audience_id), first: null };
      }
    }
  }

  async findCreated(account: AdapterAccount, input: AudienceInput, since: Date): Promise<string | null> {
    // The list is newest first; one page of the largest size covers any lost answer of the last minutes.
    const { list } = await this.page(account, 1, 100);
    const from = Math.floor(since.getTime() / 1000) * 1000;
    const found = list.find((one) => one.name === input.name && Date.parse(`${one.create_time ?? ''}Z`) >= from);
    return found ? String(found.audience_id) : null;
  }

  async list(account: AdapterAccount, subtype: AudienceSubtype | undefined, limit: number, after?: string) {
    const page = Number(after ?? 1);
    const { list, more } = await this.page(account, page, limit);
    const countries = await this.countryIds(account);
    const items = list.map((one) => audienceOf(one, countries)).filter((one) => !subtype || one.subtype === subtype);
    return { items, nextCursor: more ? String(page + 1) : null };
  }

  async get(account: AdapterAccount, id: string): Promise<PlatformAudience | null> {
    const one = await this.details(account, id);
    return one && audienceOf(one, await this.countryIds(account));
  }

  async update(account: AdapterAccount, id: string, change: AudienceChange): Promise<PlatformAudience | null> {
    const current = await this.details(account, id);
    if (!current) return null;
    if (change.name !== undefined)
      await this.send(account, '/dmp/custom_audience/update/', { custom_audience_id: id, custom_audience_name: change.name });
    if (change.retentionDays !== undefined && current.rule_spec) {
      const rules = current.rule_spec.inclusion_rule_set.rules.map((rule) => ({ ...rule, retention_days: change.retentionDays! }));
      await this.send(account, '/dmp/custom_audience/rule/update/', {
        custom_audience_id: id,
        rule_spec: { inclusion_rule_set: { ...current.rule_spec.inclusion_rule_set, rules } },
      });
    }
    if (change.description !== undefined) throw new AdRefused('description', 'The platform keeps no description on an audience.');
    return this.get(account, id);
  }

  async delete(account: AdapterAccount, id: string): Promise<boolean> {
    if (!(await this.details(account, id))) return false;
    await this.send(account, '/dmp/custom_audience/delete/', { custom_audience_ids: [id] });
    return true;
  }

  async upload(account: AdapterAccount, audienceId: string, action: 'add' | 'remove', keys: string[]): Promise<AudienceUpload> {
    if (!(await this.details(account, audienceId)))
      throw new AdObjectNotFound('audienceId', `No audience ${audienceId} in the ad account.`);
    return {
      sessionId: null,
      // Each batch is a file of its own, applied at once: nothing waits for the last one.
      send: async (rows: HashedRow[]): Promise<BatchReceipt> => {
        const path = await this.file(account, rows, keys);
        await this.send(account, '/dmp/custom_audience/update/', {
          custom_audience_id: audienceId,
          file_paths: [path],
          action: action === 'add' ? 'APPEND' : 'REMOVE',
          calculate_type: 'MULTIPLE_TYPES',
        });
        return { received: rows.length, invalid: 0 };
      },
    };
  }

  /** Uploads rows as a hashed CSV (a header of id types, a row each): its `file_path`. */
  private async file(account: AdapterAccount, rows: HashedRow[], keys: string[]): Promise<string> {
    const text = [keys.join(','), ...rows.map((row) => keys.map((key) => row[key] ?? '').join(','))].join('\n');
    const data = await this.client.upload<{ file_path: string }>(
      '/dmp/custom_audience/file/upload/',
      account.credentials.accessToken,
      {
        advertiser_id: account.platformAccountId,
        calculate_type: 'MULTIPLE_TYPES',
        file_signature: createHash('md5').update(text).digest('hex'),
      },
      { name: 'people.csv', text },
    );
    return data.file_path;
  }

  private async details(account: AdapterAccount, id: string): Promise<Listed | null> {
    if (!/^\d{1,20}$/.test(id)) return null;
    const query = new URLSearchParams({ advertiser_id: account.platformAccountId, custom_audience_ids: JSON.stringify([id]) });
    const data = await this.client.call<{ list?: Array<{ audience_details?: Listed }> }>(`/dmp/custom_audience/get/?${query}`, {
      accessToken: account.credentials.accessToken,
    });
    return data.list?.[0]?.audience_details ?? null;
  }

  private async page(account: AdapterAccount, page: number, size: number) {
    const query = new URLSearchParams({ advertiser_id: account.platformAccountId, page: String(page), page_size: String(size) });
    const data = await this.client.call<{ list?: Listed[]; page_info?: { page?: number; total_page?: number } }>(
      `/dmp/custom_audience/list/?${query}`,
      { accessToken: account.credentials.accessToken },
    );
    return { list: data.list ?? [], more: (data.page_info?.page ?? page) < (data.page_info?.total_page ?? 0) };
  }

  /** A write; the platform's refusal of a lookalike's source as the 422 the caller can act on. */
  private async send<T>(account: AdapterAccount, path: string, body: Record<string, unknown>): Promise<T> {
    try {
      return await this.client.call<T>(path, {
        method: 'POST',
        accessToken: account.credentials.accessToken,
        body: { advertiser_id: account.platformAccountId, ...body },
      });
    } catch (error) {
      if (!(error instanceof PlatformError) || error.details.platformCode !== 40002) throw error;
      if (TOO_SMALL.test(error.message)) throw new AudienceRefused('too_small', error.message, 40002);
      if (NOT_READY.test(error.message)) throw new AudienceRefused('source_not_ready', error.message, 40002);
      throw new AdRefused(null, error.message, 40002);
    }
  }
}

/** The id types a batch's rows carry, in a fixed order. */
function keysOf(rows: HashedRow[]): string[] {
  return Object.values(FILE_KEYS).filter((key) => rows.some((row) => row[key] !== undefined));
}

function tiktokRule(rule: AudienceRule, pixelId: string, retentionDays: number): TikTokRule {
  return {
    inclusion_rule_set: {
      operator: 'OR',
      rules: [
        {
          event_source_ids: [pixelId],
          retention_days: retentionDays,
          filter_set: {
            operator: rule.combinator === 'and' ? 'AND' : 'OR',
            filters: rule.conditions.map((one) => ({ field: one.field, operator: theirs(one.operator), value: one.value })),
          },
        },
      ],
    },
  };
}

function audienceOf(raw: Listed, countries: Map<string, string>): PlatformAudience {
  const subtype = TYPES[raw.audience_type ?? ''] ?? 'CUSTOM';
  const rule = raw.rule_spec?.inclusion_rule_set.rules[0];
  const lookalike = raw.lookalike_spec;
  const created = new Date(`${raw.create_time ?? '1970-01-01 00:00:00'}Z`.replace(' ', 'T')).toISOString();
  return {
    id: String(raw.audience_id),
    name: raw.name ?? String(raw.audience_id),
    subtype,
    description: null,
    sizeRange: raw.is_valid && raw.cover_num !== undefined ? { lower: raw.cover_num, upper: raw.cover_num } : null,
    customerFileSource: subtype === 'CUSTOM' ? 'USER_PROVIDED_ONLY' : null,
    status: raw.is_expired ? 'error' : !raw.is_valid ? 'populating' : (raw.cover_num ?? 0) < 1000 ? 'too_small' : 'ready',
    lookalikeSpec:
      subtype === 'LOOKALIKE' && lookalike
        ? {
            originAudienceId: String(lookalike.source_audience_id ?? ''),
            countries: (lookalike.location_ids ?? []).map((id) => countries.get(String(id)) ?? String(id)),
            ratio: SIZE_STEPS.find(([, size]) => size === lookalike.audience_size)?.[2] ?? 0.05,
          }
        : null,
    pixelId: rule ? String(rule.event_source_ids[0]) : null,
    rule: rule
      ? {
          combinator: rule.filter_set.operator === 'AND' ? 'and' : 'or',
          conditions: rule.filter_set.filters.map((one) => ({
            field: one.field,
            operator: ours(one.operator) as AudienceRule['conditions'][number]['operator'],
            value: one.value,
          })),
        }
      : null,
    retentionDays: rule ? rule.retention_days : null,
    createdAt: created,
    updatedAt: raw.update_time ? new Date(`${raw.update_time}Z`.replace(' ', 'T')).toISOString() : created,
  };
}
