import type OpenAI from 'openai';
import type { Config } from '../../config.js';
import { onePer } from '../../lib/memo.js';
import type { Services } from '../../services.js';
import { orList } from '../../lib/or-list.js';
import { AiModelUnavailableError } from './errors.js';
import { AI_KINDS, type AiKind, type AiModelSettings, type AiProviderSettings, type AiSettings } from './settings.js';

/** A model the service offers: its provider's and its own settings, and what the provider's list says of it. */
export interface OfferedModel {
  provider: AiProviderSettings;
  model: AiModelSettings;
  /** The provider's `shutdown_date`, when its list gives one. */
  shutdownDate: string | null;
}

/** Whether a kind has models now, and why not. */
export interface KindAvailability {
  kind: AiKind;
  providers: string[];
  reason: string | null;
}

export interface Catalogue {
  models: OfferedModel[];
  kinds: KindAvailability[];
}

/** How long an unreachable provider's failure is remembered before its list is asked for again. */
const FAILED_LIST_TTL_MS = 10_000;
const LIST_TIMEOUT_MS = 5_000;

/** The provider's client library, loaded on its first use: loading it cost every start 0.1 s of CPU. */
export async function openaiLibrary(): Promise<typeof OpenAI> {
  return (await import('openai')).default;
}

interface Listed {
  at: number;
  ids: Map<string, string | null> | null;
  failure: string | null;
}

/**
 * The providers of this instance — those configured, or with none the local sandbox provider — and their models:
 * the models of the configuration that the provider's own `GET /models` lists (read again every few minutes), so
 * a model the provider retired is no longer offered. Calls go through the official `openai` client, one per
 * provider, which never retries by itself: the tasks' worker retries on its own schedule.
 */
export class AiRegistry {
  readonly providers: AiProviderSettings[];
  private readonly clients = new Map<string, OpenAI>();
  private readonly lists = new Map<string, Listed>();

  constructor(private readonly settings: AiSettings) {
    this.providers = settings.providers;
  }

  async client(provider: AiProviderSettings): Promise<OpenAI> {
    let client = this.clients.get(provider.name);
    if (!client) {
      const OpenAI = await openaiLibrary();
      client = new OpenAI({
        baseURL: provider.baseUrl,
        apiKey: provider.apiKey,
        maxRetries: 0,
        timeout: this.settings.requestTimeoutSeconds * 1000,
      });
      this.clients.set(provider.name, client);
    }
    return client;
  }

  /** The provider and settings of a task's model, from configuration (a task keeps running if the list changes). */
  configured(providerName: string, modelId: string): OfferedModel | null {
    const provider = this.providers.find((entry) => entry.name === providerName);
    const model = provider?.models.find((entry) => entry.id === modelId);
    return provider && model ? { provider, model, shutdownDate: null } : null;
  }

  private async listed(provider: AiProviderSettings): Promise<Listed> {
    const cached = this.lists.get(provider.name);
    const ttl = cached?.failure ? FAILED_LIST_TTL_MS : this.settings.modelListTtlSeconds * 1000;
    if (cached && Date.now() - cached.at < ttl) return cached;
    let listed: Listed;
    try {
      const ids = new Map<string, string | null>();
      for await (const model of (await this.client(provider)).models.list({ timeout: LIST_TIMEOUT_MS })) {
        const shutdown = (model as { shutdown_date?: unknown }).shutdown_date;
        ids.set(model.id, typeof shutdown === 'string' ? shutdown : null);
      }
      listed = { at: Date.now(), ids, failure: null };
    } catch (error) {
      listed = { at: Date.now(), ids: null, failure: (error as Error).message };
    }
    this.lists.set(provider.name, listed);
    return listed;
  }

  /** Every model offered now, and for each kind the providers serving it or why there are none. */
  async catalogue(): Promise<Catalogue> {
    const lists = await Promise.all(this.providers.map(async (provider) => ({ provider, listed: await this.listed(provider) })));
    const models: OfferedModel[] = [];
    const problems = new Map<AiKind, string[]>();
    for (const { provider, listed } of lists) {
      for (const model of provider.models) {
        if (!listed.ids) {
          problems.set(model.kind, [
            ...(problems.get(model.kind) ?? []),
            `provider ${provider.name} could not be reached (${listed.failure})`,
          ]);
        } else if (!listed.ids.has(model.id)) {
          problems.set(model.kind, [...(problems.get(model.kind) ?? []), `provider ${provider.name} does not list model ${model.id}`]);
        } else {
          models.push({ provider, model, shutdownDate: listed.ids.get(model.id) ?? null });
        }
      }
    }
    const kinds = AI_KINDS.map((kind): KindAvailability => {
      const serving = [...new Set(models.filter((offered) => offered.model.kind === kind).map((offered) => offered.provider.name))];
      if (serving.length > 0) return { kind, providers: serving, reason: null };
      const why = problems.get(kind);
      return {
        kind,
        providers: [],
        reason: why ? `No ${kind} model is available: ${why.join('; ')}.` : `No provider of ${kind} models is configured on this instance.`,
      };
    });
    return { models, kinds };
  }

  /** The model a request names (or its kind's default); 422 `ai_model_unavailable` saying why there is none. */
  async resolve(kind: AiKind, id: string | undefined): Promise<OfferedModel> {
    const { models, kinds } = await this.catalogue();
    const ofKind = models.filter((offered) => offered.model.kind === kind);
    if (id === undefined) {
      const chosen = ofKind.find((offered) => offered.model.default) ?? ofKind[0];
      if (!chosen) throw new AiModelUnavailableError(kinds.find((entry) => entry.kind === kind)!.reason!);
      return chosen;
    }
    const named = models.find((offered) => offered.model.id === id);
    if (named?.model.kind === kind) return named;
    const choices = ofKind.map((offered) => offered.model.id);
    const takes = `the ${kind} models here are ${orList(choices)} (GET /ai/models?kind=${kind})`;
    throw new AiModelUnavailableError(
      named
        ? `${id} is ${article(named.model.kind)} ${named.model.kind} model, not ${article(kind)} ${kind} model; ${takes}.`
        : `No ${kind} model named ${id}; ${takes}.`,
      [{ path: 'body/model', code: 'enum', message: `is ${JSON.stringify(id)}, not one of: ${orList(choices)}` }],
    );
  }
}

function article(kind: AiKind): string {
  return kind === 'image' || kind === 'audio' ? 'an' : 'a';
}

/** One registry per service instance (its clients keep their connections). */
const registries = onePer((config: Config) => new AiRegistry(config.ai));

export function registryOf(services: Pick<Services, 'config'>): AiRegistry {
  return registries(services.config);
}
