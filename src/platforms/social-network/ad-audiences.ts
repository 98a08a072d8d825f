import { randomInt } from 'node:crypto';
import { AdRefused } from '../capabilities/ad-campaigns.js';
import {
  type AdAudiences,
  type AudienceChange,
  type AudienceInput,
  AudienceRefused,
  type AudienceSubtype,
  type AudienceUpload,
  type BatchReceipt,
  type HashedRow,
  type PlatformAudience,
} from '../capabilities/ad-audiences.js';
import type { PlatformError } from '../errors.js';
import { type GraphList, nextCursorOf } from '../meta/graph.js';
import type { AdapterAccount } from '../types.js';
import {
  AUDIENCE_SUBCODES,
  CUSTOMER_FILE_KEYS,
  DELIVERY_TOO_SMALL,
  graphRule,
  OPERATION_POPULATING,
  ruleOf,
  USERS_BATCH,
} from './audience-rules.js';
import { classifyMarketingError } from './campaigns.js';
import type { SocialNetworkClient } from './client.js';

interface GraphAudience {
  id: string;
  name?: string;
  subtype?: string;
  description?: string;
  approximate_count_lower_bound?: number;
  approximate_count_upper_bound?: number;
  customer_file_source?: string;
  operation_status?: { code?: number; description?: string };
  delivery_status?: { code?: number; description?: string };
  lookalike_spec?: {
    ratio?: number;
    country?: string;
    origin?: Array<{ id: string }>;
    location_spec?: { geo_locations?: { countries?: string[] } };
  };
  pixel_id?: string;
  rule?: unknown;
  retention_days?: number;
  time_created?: number;
  time_updated?: number;
}

const FIELDS =
  'id,name,subtype,description,approximate_count_lower_bound,approximate_count_upper_bound,customer_file_source,' +
  'operation_status,delivery_status,lookalike_spec,pixel_id,rule,retention_days,time_created,time_updated';
/** Graph 100/33: no such object (or none this token may see). */
const UNKNOWN_OBJECT = 33;
/** How far back a lost create is looked for among the newest audiences. */
const RECONCILE_SCAN = 200;
const SUBTYPES: readonly string[] = ['CUSTOM', 'LOOKALIKE', 'WEBSITE'];

const json = (value: unknown) => JSON.stringify(value);
const iso = (seconds: number | undefined) => new Date((seconds ?? 0) * 1000).toISOString();

/** The Marketing API's refusals, with those the caller can act on (terms, a lookalike's source) told apart. */
function classifyAudienceError(status: number, body: unknown, headers?: Headers): PlatformError {
  const error = classifyMarketingError(status, body, headers);
  if (!(error instanceof AdRefused)) return error;
  const subcode = error.platformSubcode;
  const reason =
    subcode === AUDIENCE_SUBCODES.termsNotAccepted
      ? 'terms_not_accepted'
      : subcode === AUDIENCE_SUBCODES.sourceTooSmall
        ? 'too_small'
        : subcode === AUDIENCE_SUBCODES.sourceNotReady
          ? 'source_not_ready'
          : null;
  return reason ? new AudienceRefused(reason, error.message, error.platformCode, subcode) : error;
}

function audienceOf(raw: GraphAudience): PlatformAudience {
  const subtype = (SUBTYPES.includes(raw.subtype ?? '') ? raw.subtype : 'CUSTOM') as AudienceSubtype;
  const lower = raw.approximate_count_lower_bound;
  const upper = raw.approximate_count_upper_bound;
  const operation = raw.operation_status?.code;
  const website = subtype === 'WEBSITE' ? ruleOf(raw.rule) : null;
  const lookalike = raw.lookalike_spec;
  return {
    id: raw.id,
    name: raw.name ?? raw.id,
    subtype,
    description: raw.description || null,
    // -1 is the Graph's "too small to tell".
    sizeRange: lower !== undefined && upper !== undefined && lower >= 0 ? { lower, upper } : null,
    customerFileSource:
      subtype === 'CUSTOM' ? ((raw.customer_file_source ?? 'USER_PROVIDED_ONLY') as PlatformAudience['customerFileSource']) : null,
    status:
      operation === OPERATION_POPULATING
        ? 'populating'
        : operation !== undefined && operation >= 400
          ? 'error'
          : raw.delivery_status?.code === DELIVERY_TOO_SMALL
            ? 'too_small'
            : 'ready',
    lookalikeSpec:
      subtype === 'LOOKALIKE' && lookalike
        ? {
            originAudienceId: lookalike.origin?.[0]?.id ?? '',
            countries: lookalike.location_spec?.geo_locations?.countries ?? (lookalike.country ? lookalike.country.split(',') : []),
            ratio: lookalike.ratio ?? 0.01,
          }
        : null,
    pixelId: subtype === 'WEBSITE' ? (website?.pixelId ?? raw.pixel_id ?? null) : null,
    rule: website?.rule ?? null,
    retentionDays: subtype === 'WEBSITE' ? (website?.retentionDays ?? raw.retention_days ?? null) : null,
    createdAt: iso(raw.time_created),
    updatedAt: iso(raw.time_updated ?? raw.time_created),
  };
}

/**
 * Custom audiences over the Marketing API (`/act_{id}/customaudiences`, `/{audience-id}`) and their people
 * (`POST|DELETE /{audience-id}/users` in a session: `session_id`, `batch_seq` from 1, `last_batch_flag` on the
 * last; 10 000 rows per call in the multi-key schema).
 */
export class SocialNetworkAdAudiences implements AdAudiences {
  readonly personKeys = CUSTOMER_FILE_KEYS;
  readonly batchSize = USERS_BATCH;
  readonly createsWithPeople = false;

  constructor(private readonly client: SocialNetworkClient) {}

  private call<T>(account: AdapterAccount, method: 'GET' | 'POST' | 'DELETE', path: string, request: { query?: Form; form?: Form } = {}) {
    return this.client.call<T>(method, path, { token: account.credentials.accessToken, ...request }, classifyAudienceError);
  }

  async create(account: AdapterAccount, input: AudienceInput): Promise<{ id: string; first: null }> {
    const { id } = await this.call<{ id: string }>(account, 'POST', `${account.platformAccountId}/customaudiences`, {
      form: createForm(input),
    });
    return { id, first: null };
  }

  async findCreated(account: AdapterAccount, input: AudienceInput, since: Date): Promise<string | null> {
    const from = Math.floor(since.getTime() / 1000);
    let after: string | undefined;
    for (let seen = 0; seen < RECONCILE_SCAN;) {
      const page = await this.page(account, undefined, 50, after);
      for (const raw of page.data) {
        if ((raw.time_created ?? 0) < from) return null;
        if (raw.name === input.name && raw.subtype === input.subtype) return raw.id;
      }
      seen += page.data.length;
      after = nextCursorOf(page) ?? undefined;
      if (!after) return null;
    }
    return null;
  }

  async list(account: AdapterAccount, subtype: AudienceSubtype | undefined, limit: number, after?: string) {
    const page = await this.page(account, subtype, limit, after);
    return { items: page.data.map(audienceOf), nextCursor: nextCursorOf(page) };
  }

  async get(account: AdapterAccount, id: string): Promise<PlatformAudience | null> {
    try {
      const raw = await this.call<GraphAudience & { account_id?: string }>(account, 'GET', id, {
        query: { fields: `${FIELDS},account_id` },
      });
      return `act_${raw.account_id}` === account.platformAccountId ? audienceOf(raw) : null;
    } catch (error) {
      // Another kind of object refuses the fields (100), an unknown one is 100/33.
      if (error instanceof AdRefused && error.platformCode === 100) return null;
      throw error;
    }
  }

  async update(account: AdapterAccount, id: string, change: AudienceChange): Promise<PlatformAudience | null> {
    const current = await this.get(account, id);
    if (!current) return null;
    const form: Form = { name: change.name, description: change.description === null ? '' : change.description };
    if (change.retentionDays !== undefined && current.rule && current.pixelId)
      form.rule = json(graphRule(current.rule, current.pixelId, change.retentionDays));
    await this.call(account, 'POST', id, { form });
    return this.get(account, id);
  }

  async delete(account: AdapterAccount, id: string): Promise<boolean> {
    if (!(await this.get(account, id))) return false;
    try {
      await this.call(account, 'DELETE', id);
    } catch (error) {
      // Deleted meanwhile by another call: gone is what was asked.
      if (error instanceof AdRefused && error.platformSubcode === UNKNOWN_OBJECT) return true;
      throw error;
    }
    return true;
  }

  async upload(account: AdapterAccount, audienceId: string, action: 'add' | 'remove', keys: string[]): Promise<AudienceUpload> {
    // A session id is the caller's own 64-bit number; one per upload groups its batches.
    const sessionId = String(randomInt(1, 2 ** 47) * 1000 + randomInt(1000));
    let batch = 0;
    return {
      sessionId,
      send: async (rows: HashedRow[], last: boolean): Promise<BatchReceipt> => {
        batch += 1;
        const answer = await this.call<{ num_received?: number; num_invalid_entries?: number }>(account, 'POST', `${audienceId}/users`, {
          form: {
            // The Graph's method override: a DELETE's 10 000 rows go in a body, which a DELETE may not carry everywhere.
            method: action === 'add' ? undefined : 'DELETE',
            session: json({ session_id: Number(sessionId), batch_seq: batch, last_batch_flag: last }),
            payload: json({ schema: keys, data: rows.map((row) => keys.map((key) => row[key] ?? '')) }),
          },
        });
        return { received: answer.num_received ?? rows.length, invalid: answer.num_invalid_entries ?? 0 };
      },
    };
  }

  private page(account: AdapterAccount, subtype: AudienceSubtype | undefined, limit: number, after?: string) {
    return this.call<GraphList<GraphAudience>>(account, 'GET', `${account.platformAccountId}/customaudiences`, {
      query: {
        fields: FIELDS,
        limit,
        after,
        filtering: subtype ? json([{ field: 'subtype', operator: 'EQUAL', value: subtype }]) : undefined,
      },
    });
  }
}

type Form = Record<string, string | number | undefined>;

function createForm(input: AudienceInput): Form {
  const common = { name: input.name, description: input.description, subtype: input.subtype };
  switch (input.subtype) {
    case 'CUSTOM':
      return { ...common, customer_file_source: input.customerFileSource };
    case 'LOOKALIKE':
      return {
        ...common,
        origin_audience_id: input.lookalikeSpec.originAudienceId,
        lookalike_spec: json({
          type: 'custom_ratio',
          ratio: input.lookalikeSpec.ratio,
          location_spec: { geo_locations: { countries: input.lookalikeSpec.countries } },
        }),
      };
    case 'WEBSITE':
      return {
        ...common,
        pixel_id: input.pixelId,
        retention_days: input.retentionDays,
        rule: json(graphRule(input.rule, input.pixelId, input.retentionDays)),
      };
  }
}
