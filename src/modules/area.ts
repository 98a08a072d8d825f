import type { Knex } from 'knex';
import type { AreaName, OperationIdOf } from '../../generated/operations.js';
import type { Handler } from '../http/handler.js';
import type { JobHandler } from '../jobs/scheduler.js';
import type { LeasedWork } from '../lib/lease-worker.js';
import type { IncomingEvent, WebhookReceiver } from '../platforms/capabilities/webhooks.js';
import type { Services } from '../services.js';

export type IncomingKind = IncomingEvent['kind'];

/**
 * What an area does with events of one kind read from platforms' webhooks (the platform is already verified):
 * consecutive events of that kind, in the order received, all at once. Everything it writes goes through `trx`,
 * the transaction that marks their webhooks processed, so the events are handled whole or not at all. Handling
 * an event again (a redelivery, a retry after a failure) must change nothing more.
 */
export type IncomingHandler<K extends IncomingKind> = (
  services: Services,
  platform: string,
  events: Array<Extract<IncomingEvent, { kind: K }>>,
  trx: Knex.Transaction,
) => Promise<void>;

/** An incoming handler that takes its events one after another: for kinds too rare to be worth handling together. */
export function oneAtATime<K extends IncomingKind>(
  handle: (services: Services, platform: string, event: Extract<IncomingEvent, { kind: K }>, trx: Knex.Transaction) => Promise<void>,
): IncomingHandler<K> {
  return async (services, platform, events, trx) => {
    for (const event of events) await handle(services, platform, event, trx);
  };
}

/** Every area's handlers of one kind of incoming event, in the areas' order. */
export type IncomingHandlers = <K extends IncomingKind>(kind: K) => ReadonlyArray<IncomingHandler<K>>;

/** Every area's webhook sources (`Area.webhookSources`) joined: the receiver of one, or null. */
export type WebhookSources = (services: Services, source: string) => WebhookReceiver | null;

/** Work that runs in the background of a process of the worker role, from start-up until shutdown. */
export interface BackgroundWorker {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * One of an area's workers: what it does with the table it drains, which the worker role runs in a `LeaseWorker`,
 * or a worker of its own.
 */
export type WorkerWork = (services: Services) => LeasedWork<never, unknown> | BackgroundWorker;

/**
 * Everything one area contributes to the service, said in its own folder (`src/modules/<area>/index.ts`), so
 * that adding an operation or an area touches that folder and the contract, never a list kept elsewhere.
 * `src/modules/index.ts` joins the areas.
 */
export interface Area<A extends AreaName = AreaName, K extends IncomingKind = IncomingKind, S extends object = object> {
  /** A name for logs and the workers' keys; the folder's name. */
  name: string;
  /** The contract's area (the operations' tag) this folder serves operations of. */
  contractArea: A;
  /** One handler per built operation, named by its operationId. An operation without one answers 501. */
  handlers: { [Op in OperationIdOf<A>]?: Handler<Op> };
  /**
   * Operations built for some platforms only; they keep their 501 response in the contract for the others.
   * The value says what is missing.
   */
  partlyBuilt?: { [Op in OperationIdOf<A>]?: string };
  /** The area's settings, read from the environment into `config` under the keys it returns. */
  settings?: (env: NodeJS.ProcessEnv) => S;
  /**
   * The jobs the area runs, by name; defined in every process so any process can enqueue them. `data: never`
   * lets each job type its own data.
   */
  jobs?: (services: Services) => Record<string, JobHandler<never>>;
  /** Jobs of `jobs` run on an interval (an Agenda interval, e.g. '1 minute') by the worker role. */
  schedules?: Record<string, string>;
  /** Forgets what has expired in the area's tables; answers how many rows of each kind went, for the log. */
  purge?: (services: Services) => Promise<Record<string, number>>;
  /** What the area does with events read from platforms' webhooks, by kind (several areas may handle a kind). */
  incoming?: { [Kind in K]: IncomingHandler<Kind> };
  /**
   * Sources of webhooks that are no platform (the payment provider), by their name in `/webhooks/{platform}`:
   * the receiver, or null when this instance runs without it. Their webhooks are received, stored and processed
   * as platforms' are, their events handled by kind (`incoming`).
   */
  webhookSources?: Record<string, (services: Services) => WebhookReceiver | null>;
  /** The work of the workers the area runs in processes of the worker role, by the worker's name. */
  workers?: Record<string, WorkerWork>;
  /**
   * The tables the area owns (their names in the schema): only the area's own folder names them, in a query
   * builder or in SQL; other areas read and write them through the functions the area exports
   * (test/modules/area-tables.test.ts).
   */
  tables: readonly string[];
  /**
   * The area's work that is due now or under way (leased to a worker), by kind: SQL expressions that each count
   * one kind of it. All are zero when the area has nothing left to do but what is planned for later.
   */
  outstanding?: Record<string, string>;
}

/** Any area, as the joins in src/modules/index.ts see it. */
export type AnyArea = Omit<Area, 'incoming'> & { incoming?: { [Kind in IncomingKind]?: IncomingHandler<Kind> } };

/** Types an area's contribution (its handlers by the operations of its contract area). */
export function defineArea<A extends AreaName, K extends IncomingKind = never, S extends object = object>(
  area: Area<A, K, S>,
): Area<A, K, S> {
  return area;
}
