import type { Knex } from 'knex';
import { Batcher } from '../../lib/batcher.js';
import type { Logger } from '../../lib/logger.js';

/** Woken when platform webhooks are stored: the intake workers (./worker.ts) process them at once. */
export const INTAKE_CHANNEL = 'socialgate_intake';

/**
 * Wakes the intake workers once webhooks are stored, in a statement of its own rather than in the ones that store
 * them: PostgreSQL makes the commit of every transaction that notifies wait for the others' (one lock serialises
 * them), and platforms deliver webhooks by the hundred per second. Wake-ups asked for while one is being sent go
 * together in the next. One lost (a crash between the commit and the NOTIFY) delays the webhook until the
 * workers' next look, within a second.
 */
export class IntakeWaker {
  private readonly sending: Batcher<null>;

  constructor(
    db: Knex,
    private readonly logger: Logger,
  ) {
    this.sending = new Batcher(async () => {
      await db.raw('SELECT pg_notify(?, ?)', [INTAKE_CHANNEL, '']);
    }, Number.MAX_SAFE_INTEGER);
  }

  wake(): void {
    this.sending
      .add(null)
      .catch((error: unknown) => this.logger.warn({ err: error }, 'waking the intake workers failed; they look again within a second'));
  }
}
