/** Cards as the provider's test mode knows them: this one is declined, every other number pays. */
export const DECLINED_CARD = '4000000000000002';

/** One of the provider's objects (a customer, a subscription, an invoice, …) as its API shows it. */
export type Obj = Record<string, unknown> & { id: string };
/** A form-encoded body as parsed, brackets made into objects and arrays. */
export type FormBody = Record<string, unknown>;

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: Obj };
}

export interface AccountState {
  seq: number;
  /** The test clock: seconds added to the real time (advanced to renew subscriptions). */
  clockOffset: number;
  customers: Map<string, Obj>;
  prices: Map<string, Obj>;
  sessions: Map<string, Obj>;
  portals: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
  creditNotes: Map<string, Obj>;
  endpoints: Map<string, Obj>;
  /** The card each customer pays with (set at checkout). */
  cards: Map<string, string>;
}

/** A refusal in the provider's error format (`{"error": {type, code, message, param}}`); `param`: the parameter at fault. */
export class StripeRefusal extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}
