import type { OperationId } from '../generated/operations.js';
import type { Db } from './db/database.js';
import type { Contract } from './http/contract.js';
import type { Scheduler } from './jobs/scheduler.js';
import type { Config } from './config.js';
import type { RateLimits } from './http/rate-limit.js';
import type { Logger } from './lib/logger.js';
import type { AddressGuard } from './lib/address-guard.js';
import type { SecretBox } from './lib/secret-box.js';
import type { IncomingHandlers, WebhookSources } from './modules/area.js';
import type { PrincipalCache } from './modules/auth/principal-cache.js';
import type { Platforms } from './platforms/registry.js';
import type { UsageRecorder } from './modules/usage/recorder.js';

/** What handlers and jobs are given: one instance per process, built in main.ts (or by a test). */
export interface Services {
  config: Config;
  db: Db;
  logger: Logger;
  contract: Contract;
  /** Every process enqueues jobs; only one of the worker role runs them. */
  scheduler: Scheduler;
  secrets: SecretBox;
  /** The principals of recently used tokens, dropped at once when revoked in any process. */
  principals: PrincipalCache;
  addressGuard: AddressGuard;
  platforms: Platforms;
  /** What the areas do with each kind of event read from a platform's webhook. */
  incomingHandlers: IncomingHandlers;
  /** The receivers of webhooks from sources that are not platforms (the payment provider). */
  webhookSources: WebhookSources;
  /** Counts usage in memory (a map increment) and writes it in batches; see src/modules/usage/recorder.ts. */
  usage: UsageRecorder;
  /** The rate limits the HTTP pipeline counts against, shared by every API process (src/http/rate-limit.ts). */
  rateLimits: RateLimits;
  /** The operations that answer 501: built by no area, or built for some platforms only (with what is missing). */
  unbuilt: { operations: readonly OperationId[]; partly: Partial<Record<OperationId, string>> };
  /** The local platform sandbox, when this process started one. */
  sandboxUrl: string | null;
  startedAt: number;
}
