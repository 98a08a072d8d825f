import { type ClaimLoop, type LeasedWork, type LeaseWorkerSettings, claimInBatches } from '../../lib/lease-worker.js';
import type { Services } from '../../services.js';
import { type PushAnswer, type PushCredentials, PushClient } from './apns.js';
import { ProgramRow, type PushRow, type RegistrationRow } from './models.js';
import { WALLET_PUSHES_CHANNEL } from './pushes.js';
import { vendorTrust } from './trust.js';

type Claimed = Pick<PushRow, 'id' | 'pushToken' | 'passTypeIdentifier' | 'programId' | 'attempts'>;

type Outcome = { kind: 'sent' } | { kind: 'gone'; reason: string } | { kind: 'retry'; why: string } | { kind: 'drop'; why: string };

const POLL_MS = 1000;
const CLAIM_BATCH = 100;
/** Seconds before each retry of a push the service throttled or could not take; then the push is given up. */
const RETRY_SECONDS = [1, 5, 30, 120, 600];
/** How long a program's signing identity is reused for its pushes before it is read again (a renewal). */
const CREDENTIALS_TTL_MS = 10_000;

/**
 * Sends the pushes owed to devices (table `wallet_pushes`, filled in the same transaction as each change of a
 * pass) through the vendor's push service, under a lease so several workers share the table and a crash loses
 * none: a lease that runs out is claimed again. 410 Unregistered and 400 BadDeviceToken remove the device's
 * registrations; 429 and failures of the service are retried later.
 */
export class PushSending implements LeasedWork<Claimed, Outcome> {
  readonly settings: LeaseWorkerSettings;
  private client: Promise<PushClient> | undefined;
  private readonly credentials = new Map<string, { at: number; value: Promise<{ key: string; credentials: PushCredentials } | null> }>();

  constructor(private readonly services: Services) {
    const { pushConcurrency, pushLeaseSeconds } = services.config.wallet;
    this.settings = {
      name: 'socialgate-wallet-pushes',
      channels: [WALLET_PUSHES_CHANNEL],
      concurrency: pushConcurrency,
      pollMs: POLL_MS,
      loops: 1,
      leaseSeconds: pushLeaseSeconds,
    };
  }

  turn(loop: ClaimLoop<Claimed>): Promise<void> {
    return claimInBatches(loop, CLAIM_BATCH, POLL_MS, (n) => this.claimDue(n));
  }

  private async claimDue(n: number): Promise<Claimed[]> {
    if (n <= 0) return [];
    const result = await this.services.db.raw(
      `UPDATE wallet_pushes SET lease_until = now() + make_interval(secs => ?), attempts = attempts + 1
        WHERE id IN (SELECT id FROM wallet_pushes
                      WHERE due_at <= now() AND (lease_until IS NULL OR lease_until < now())
                      ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED)
        RETURNING id, push_token, pass_type_identifier, program_id, attempts`,
      [this.settings.leaseSeconds, n],
    );
    return (result as { rows: Array<Record<string, unknown>> }).rows.map((row) => ({
      id: String(row.id),
      pushToken: String(row.push_token),
      passTypeIdentifier: String(row.pass_type_identifier),
      programId: String(row.program_id),
      attempts: Number(row.attempts),
    }));
  }

  async process(item: Claimed): Promise<Outcome> {
    const identity = await this.identity(item.programId);
    if (!identity) return { kind: 'drop', why: 'the program has no certificate to push with' };
    let answer: PushAnswer;
    try {
      answer = await (await this.pushClient()).send(item.pushToken, item.passTypeIdentifier, identity.credentials, identity.key);
    } catch (error) {
      return { kind: 'retry', why: `the push service could not be reached: ${(error as Error).message}` };
    }
    if (answer.status === 200) return { kind: 'sent' };
    if (answer.status === 410 || (answer.status === 400 && answer.reason === 'BadDeviceToken'))
      return { kind: 'gone', reason: answer.reason ?? String(answer.status) };
    return { kind: 'retry', why: `the push service answered ${answer.status} ${answer.reason ?? ''}`.trim() };
  }

  async record(item: Claimed, outcome: Outcome): Promise<void> {
    const db = this.services.db;
    switch (outcome.kind) {
      case 'sent': {
        // A change made while this push was under way owes the device another.
        const deleted = await db<PushRow>('walletPushes').where({ id: item.id, requeued: false }).delete();
        if (deleted === 0) {
          await db<PushRow>('walletPushes')
            .where({ id: item.id })
            .update({ requeued: false, leaseUntil: null, dueAt: db.fn.now(), attempts: 0 });
          await db.raw(`NOTIFY ${WALLET_PUSHES_CHANNEL}`);
        }
        return;
      }
      case 'gone':
        this.services.logger.info(
          { ...this.describe(item), reason: outcome.reason },
          'a device no longer takes pushes; its registrations are removed',
        );
        await db.transaction(async (trx) => {
          await trx<RegistrationRow>('walletRegistrations')
            .where({ pushToken: item.pushToken })
            .whereIn('passId', trx('walletPasses').where({ passTypeIdentifier: item.passTypeIdentifier }).select('id'))
            .delete();
          await trx<PushRow>('walletPushes').where({ id: item.id }).delete();
        });
        return;
      case 'retry': {
        const delay = RETRY_SECONDS[item.attempts - 1];
        if (delay === undefined) return this.record(item, { kind: 'drop', why: outcome.why });
        this.services.logger.warn({ ...this.describe(item), why: outcome.why, retryInSeconds: delay }, 'a wallet push will be retried');
        await db<PushRow>('walletPushes')
          .where({ id: item.id })
          .update({ leaseUntil: null, dueAt: db.raw('now() + make_interval(secs => ?)', [delay]) });
        return;
      }
      case 'drop':
        this.services.logger.error({ ...this.describe(item), why: outcome.why }, 'a wallet push was given up');
        await db<PushRow>('walletPushes').where({ id: item.id }).delete();
    }
  }

  async renew(items: Claimed[]): Promise<void> {
    await this.services
      .db<PushRow>('walletPushes')
      .whereIn(
        'id',
        items.map((item) => item.id),
      )
      .update({ leaseUntil: this.services.db.raw('now() + make_interval(secs => ?)', [this.settings.leaseSeconds]) });
  }

  describe(item: Claimed): Record<string, unknown> {
    return { pushId: item.id, passTypeIdentifier: item.passTypeIdentifier, programId: item.programId, attempt: item.attempts };
  }

  async close(): Promise<void> {
    if (this.client) (await this.client.catch(() => null))?.close();
  }

  private pushClient(): Promise<PushClient> {
    this.client ??= vendorTrust(this.services).then((trust) => new PushClient(trust.pushUrl, trust.pushCaPem));
    this.client.catch(() => (this.client = undefined));
    return this.client;
  }

  /** The program's certificate and key (the push service knows the provider by them), read again now and then. */
  private identity(programId: string): Promise<{ key: string; credentials: PushCredentials } | null> {
    const cached = this.credentials.get(programId);
    if (cached && Date.now() - cached.at < CREDENTIALS_TTL_MS) return cached.value;
    const value = ProgramRow.query(this.services.db)
      .findById(programId)
      .then((program) =>
        program?.certificatePem && program.sealedPrivateKey
          ? {
              key: `${program.id}:${program.certificate?.serialNumber ?? ''}`,
              credentials: {
                // With the vendor's intermediate, so the chain is whole whatever the push service knows.
                certificatePem: `${program.certificatePem}${program.wwdrPem ?? ''}`,
                privateKeyPem: this.services.secrets.open(program.sealedPrivateKey),
              },
            }
          : null,
      );
    this.credentials.set(programId, { at: Date.now(), value });
    return value;
  }
}
