import { int, intList } from '../../lib/env.js';

export const AI_KINDS = ['copy', 'image', 'video', 'audio'] as const;
export type AiKind = (typeof AI_KINDS)[number];

/**
 * One model of a provider's table, as the operator describes it: what it makes and the values each of its
 * parameters really takes (providers publish ids, not these). Absent lists mean the model takes no such member.
 */
export interface AiModelSettings {
  /** The provider's model id, sent as `model`; it must also be in the provider's `GET /v1/models`. */
  id: string;
  kind: AiKind;
  /** A name to show; the id by default. */
  name?: string;
  /** Used for its kind when a request names no model (else the kind's first model). */
  default?: boolean;
  /** The longest prompt the provider takes, in characters. */
  maxPromptChars?: number;
  /** Copy: variants one request may ask for (`n`). */
  maxVariants?: number;
  /** Image and video: the sizes the provider makes (`WIDTHxHEIGHT`), by the aspect ratio each has. */
  sizes?: Record<string, string>;
  /** Video: the lengths it makes, in seconds. */
  durations?: number[];
  /** Audio: the voices of a speech model. */
  voices?: string[];
  /** Audio: the file formats it returns. */
  formats?: string[];
  /** Image and video: whether it starts from a reference image (`imageMediaId`). */
  referenceImage?: boolean;
}

/** A provider speaking the OpenAI-compatible HTTP API (OpenAI, Azure, Ollama, vLLM, LiteLLM, OpenRouter, …). */
export interface AiProviderSettings {
  /** A short name shown as each model's `provider`. */
  name: string;
  protocol: 'openai';
  /** The API's base URL, up to and including its version (`https://api.openai.com/v1`). */
  baseUrl: string;
  apiKey: string;
  /** The local sandbox provider (its models are labelled as such); never set in configuration. */
  sandbox?: boolean;
  models: AiModelSettings[];
}

export interface AiSettings {
  /** The configured providers; none: the local sandbox provider, when the sandbox runs. */
  providers: AiProviderSettings[];
  /** Tasks worked on at once per worker process. */
  concurrency: number;
  /** How soon after a worker dies another takes its tasks over (a live one renews its claims). */
  leaseSeconds: number;
  /** Seconds before each retry of a rate limit or a provider failure; then the task fails. */
  retryScheduleSeconds: number[];
  /** How long a task of each kind may take from its acceptance; then it fails with `timeout`. */
  deadlineSeconds: Record<AiKind, number>;
  /** The longest one call to a provider may take (within the task's deadline). */
  requestTimeoutSeconds: number;
  /** How often a provider's video job is looked at, in milliseconds. */
  videoPollMs: number;
  /** The most `Prefer: wait=N` is honoured for. */
  maxWaitSeconds: number;
  /** How long a provider's model list is trusted before it is read again. */
  modelListTtlSeconds: number;
}

function providers(env: NodeJS.ProcessEnv): AiProviderSettings[] {
  const raw = env.AI_PROVIDERS;
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('AI_PROVIDERS must be a JSON array of providers (see the README, "Generative AI")');
  }
  if (!Array.isArray(parsed)) throw new Error('AI_PROVIDERS must be a JSON array of providers');
  return parsed.map((entry: Partial<AiProviderSettings>, index) => {
    const where = `AI_PROVIDERS[${index}]`;
    if (!entry || typeof entry !== 'object') throw new Error(`${where} must be an object`);
    if (!entry.name || !entry.baseUrl) throw new Error(`${where} needs a name and a baseUrl`);
    if ((entry.protocol ?? 'openai') !== 'openai') throw new Error(`${where}.protocol must be "openai" (the only protocol supported)`);
    if (!Array.isArray(entry.models) || entry.models.length === 0) throw new Error(`${where}.models must list the models to offer`);
    for (const model of entry.models) {
      if (!model?.id || !AI_KINDS.includes(model.kind))
        throw new Error(`${where}.models: each needs an id and a kind (${AI_KINDS.join(', ')})`);
    }
    // A local server (Ollama) takes any key; the client must send one.
    return { name: entry.name, protocol: 'openai', baseUrl: entry.baseUrl, apiKey: entry.apiKey ?? 'none', models: entry.models };
  });
}

export function aiSettings(env: NodeJS.ProcessEnv): { ai: AiSettings } {
  return {
    ai: {
      providers: providers(env),
      concurrency: int('AI_CONCURRENCY', 50, env),
      leaseSeconds: int('AI_LEASE_SECONDS', 30, env),
      retryScheduleSeconds: intList('AI_RETRY_SCHEDULE', [5, 30, 120], env),
      deadlineSeconds: {
        copy: int('AI_DEADLINE_COPY_SECONDS', 120, env),
        image: int('AI_DEADLINE_IMAGE_SECONDS', 300, env),
        video: int('AI_DEADLINE_VIDEO_SECONDS', 1800, env),
        audio: int('AI_DEADLINE_AUDIO_SECONDS', 300, env),
      },
      requestTimeoutSeconds: int('AI_REQUEST_TIMEOUT_SECONDS', 120, env),
      videoPollMs: int('AI_VIDEO_POLL_MS', 5000, env),
      maxWaitSeconds: int('AI_MAX_WAIT_SECONDS', 60, env),
      modelListTtlSeconds: int('AI_MODEL_LIST_TTL_SECONDS', 300, env),
    },
  };
}
