import { OPERATIONS, type OperationId } from '../../generated/operations.js';
import type { AnyHandler } from '../http/handler.js';
import { NotImplementedError } from '../lib/errors.js';
import { accounts } from './accounts/index.js';
import { ads } from './ads/index.js';
import { ai } from './ai/index.js';
import { analytics } from './analytics/index.js';
import type { AnyArea, IncomingHandler, IncomingHandlers, IncomingKind, WebhookSources } from './area.js';
import { auth } from './auth/index.js';
import { automations } from './automations/index.js';
import { billing } from './billing/index.js';
import { calendar } from './calendar/index.js';
import { comments } from './comments/index.js';
import { commerce } from './commerce/index.js';
import { connect } from './connect/index.js';
import { hooks } from './hooks/index.js';
import { keys } from './keys/index.js';
import { leads } from './leads/index.js';
import { media } from './media/index.js';
import { messaging } from './messaging/index.js';
import { publishing } from './publishing/index.js';
import { usage } from './usage/index.js';
import { wallet } from './wallet/index.js';
import { webhooks } from './webhooks/index.js';

/** The areas of the service, each said in its own folder. Their order is the order incoming events reach them. */
export const areas = [
  auth,
  keys,
  accounts,
  connect,
  media,
  publishing,
  messaging,
  comments,
  automations,
  hooks,
  webhooks,
  usage,
  billing,
  calendar,
  ai,
  analytics,
  wallet,
  ads,
  leads,
  commerce,
] as const;

type AnyOf = (typeof areas)[number];
type SettingsOf<T> = T extends { settings?: (env: NodeJS.ProcessEnv) => infer S } ? S : never;
type IncomingKindsOf<T> = T extends { incoming?: infer I } ? keyof NonNullable<I> : never;
type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/** Every area's settings together: each area reads its own into the keys it names (`config.publishing`, …). */
export type AreaSettings = UnionToIntersection<SettingsOf<AnyOf>>;

export function readAreaSettings(env: NodeJS.ProcessEnv): AreaSettings {
  return Object.assign({}, ...areas.map((area) => area.settings?.(env) ?? {})) as AreaSettings;
}

/**
 * Every kind of incoming platform event is handled by some area: a kind nobody handles fails the typecheck
 * here, naming the kind, rather than being dropped at run time.
 */
type UnhandledKinds = Exclude<IncomingKind, IncomingKindsOf<AnyOf>>;
const everyIncomingKindIsHandled: [UnhandledKinds] extends [never] ? true : { unhandledIncomingKinds: UnhandledKinds } = true;

/** The areas' handlers of each kind of incoming event, in the areas' order (joined once, at start-up). */
export function incomingHandlers(): IncomingHandlers {
  void everyIncomingKindIsHandled;
  const table = new Map<IncomingKind, unknown[]>();
  for (const area of areas as readonly AnyArea[]) {
    for (const [kind, handler] of Object.entries(area.incoming ?? {}))
      table.set(kind as IncomingKind, [...(table.get(kind as IncomingKind) ?? []), handler]);
  }
  return <K extends IncomingKind>(kind: K) => (table.get(kind) ?? []) as Array<IncomingHandler<K>>;
}

/** The areas' webhook sources that are not platforms, by name (joined once, at start-up). */
export function webhookSources(): WebhookSources {
  const table = new Map(areas.flatMap((area: AnyArea) => Object.entries(area.webhookSources ?? {})));
  return (services, source) => table.get(source)?.(services) ?? null;
}

/**
 * The handler of every operation of the contract: the one an area gives, or, for an operation no area has built
 * yet, one that answers 501 `not_implemented`. An area may only build operations of its own contract area, and
 * an operation only once.
 */
export function operationHandlers(): Record<OperationId, AnyHandler> {
  const areaOf = new Map<string, string>(OPERATIONS.map((operation) => [operation.operationId, operation.area]));
  const table = new Map<string, AnyHandler>();
  for (const area of areas as readonly AnyArea[]) {
    for (const [operationId, handler] of Object.entries(area.handlers)) {
      if (areaOf.get(operationId) !== area.contractArea) {
        throw new Error(`the ${area.name} area has a handler for ${operationId}, which is not an operation of ${area.contractArea}`);
      }
      if (table.has(operationId)) throw new Error(`${operationId} has handlers in two areas`);
      table.set(operationId, handler as AnyHandler);
    }
  }
  return Object.fromEntries(
    OPERATIONS.map(({ operationId }) => [operationId, table.get(operationId) ?? notImplemented(operationId)]),
  ) as Record<OperationId, AnyHandler>;
}

function notImplemented(operationId: OperationId): AnyHandler {
  return async () => {
    throw new NotImplementedError(operationId);
  };
}

/** Operations no area has a handler for: they answer 501, and the contract declares 501 for them. */
export function unbuiltOperations(): OperationId[] {
  const built = new Set(areas.flatMap((area: AnyArea) => Object.keys(area.handlers)));
  return OPERATIONS.map(({ operationId }) => operationId).filter((operationId) => !built.has(operationId));
}

/** Operations built for some platforms only, with what is missing; they keep their 501 in the contract. */
export function partlyBuiltOperations(): Partial<Record<OperationId, string>> {
  return Object.assign({}, ...areas.map((area: AnyArea) => area.partlyBuilt ?? {})) as Partial<Record<OperationId, string>>;
}
