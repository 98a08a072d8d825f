import { idOf } from '../../lib/ids.js';
import type { components } from '../../../generated/api.js';
import { type Handler, principalOf } from '../../http/handler.js';
import type { Services } from '../../services.js';
import type { BackgroundWorker } from '../area.js';
import { assertWithinPlan } from '../usage/limits.js';
import type { Principal } from '../auth/principal.js';
import type { AccountRow } from '../accounts/models.js';
import { presentAccount } from '../accounts/present.js';
import { findProfile } from '../accounts/profiles.js';
import { findAccount } from '../accounts/read.js';
import { assertQrchat, pendingAccount } from './qrchat-accounts.js';
import { platformToConnect } from './platform.js';
import { OPEN_JOB, QrchatSessions } from './qrchat-sessions.js';
import { readSession, startWindow } from './qrchat-store.js';
import type { SessionRow } from './rows.js';

type QrchatQr = components['schemas']['QrchatQr'];

/** How long a pairing window stays open (the QR rotates inside it). */
export const PAIRING_WINDOW_MS = 5 * 60_000;

/**
 * The job that opens sessions, run by this process's session manager: qrchat sessions are held by the processes
 * that run jobs, so the manager starts where the jobs are defined. An instance running without qrchat has none.
 */
export function qrchatJobs(services: Services): Record<string, (data: { accountId: string }) => Promise<void>> {
  const adapter = services.platforms.get('qrchat');
  if (!adapter) return {};
  const manager = new QrchatSessions(services, adapter);
  managers.set(services, manager);
  manager.start();
  return { [OPEN_JOB]: (data) => manager.open(data.accountId) };
}

/** The session manager of each service, for its worker's stop. */
const managers = new WeakMap<Services, QrchatSessions>();

/**
 * The connect area's worker: nothing to start (the sessions start with the jobs); at shutdown it stops the
 * sessions before the jobs and the pool stop, so they are let go of (QrchatSessions.stop) while it can write.
 */
export function qrchatWorker(services: Services): BackgroundWorker {
  return { start: async () => {}, stop: async () => managers.get(services)?.stop() };
}

/**
 * Creates a `pending` account (or puts an existing one of the profile back to `pending`), opens a pairing window
 * and leaves opening the session to a worker (job `qrchat.open`): the QR shows up at GET …/qrchat/qr.
 */
async function startPairing(
  services: Services,
  principal: Principal,
  input: {
    profileId: string;
    accountId?: string;
    phoneNumber?: string;
  },
): Promise<{ row: AccountRow; created: boolean }> {
  await findProfile(services.db, principal, input.profileId);
  // Refused before any window opens where this instance runs without qrchat.
  platformToConnect(services, 'qrchat');
  const phoneNumber = input.phoneNumber ? `+${input.phoneNumber.replace(/^\+/, '')}` : null;
  const window = { expiresAt: new Date(Date.now() + PAIRING_WINDOW_MS), phoneNumber };
  const pending = await services.db.transaction(async (trx) => {
    // A pending account counts as connected: a new one must fit the plan.
    if (!input.accountId) await assertWithinPlan(trx, services.config.usage, principal.ownerId, 'connectedAccounts', 1);
    const made = await pendingAccount(trx, principal, { ...input, phoneNumber });
    await startWindow(trx, made.row.id, window);
    return made;
  });
  await services.scheduler.now(OPEN_JOB, { accountId: pending.row.id });
  return pending;
}

export const connectQrchat: Handler<'connectQrchat'> = async (request, services) => {
  const { row, created } = await startPairing(services, principalOf(request), request.body);
  return created ? { status: 201, body: presentAccount(row) } : { status: 200, body: presentAccount(row) };
};

/** The pairing state as the API shows it, from the account and the session row (written by the holder). */
async function presentQr(account: AccountRow, session: SessionRow | undefined, now = Date.now()): Promise<QrchatQr> {
  const paired = account.platformAccountId ? `+${account.platformAccountId}` : null;
  const base = { accountId: account.id, qr: null, pairingCode: null, pairingExpiresAt: null, phoneNumber: session?.phoneNumber ?? paired };
  if (account.status === 'connected') return { ...base, state: 'paired', phoneNumber: paired };
  const windowEnd = session?.pairingExpiresAt;
  if (account.status !== 'pending' || !session || !windowEnd || windowEnd.getTime() <= now) return { ...base, state: 'idle' };
  const open = { ...base, pairingExpiresAt: windowEnd.toISOString() };
  switch (session.state) {
    case 'qr_pending': {
      if (!session.qr || !session.qrExpiresAt) return { ...open, state: 'starting' };
      // Loaded on the first picture drawn, not at every start.
      const { default: QRCode } = await import('qrcode');
      const dataUrl = await QRCode.toDataURL(session.qr, { errorCorrectionLevel: 'M', margin: 2, scale: 4 });
      return { ...open, state: 'awaiting_scan', qr: { text: session.qr, dataUrl, expiresAt: session.qrExpiresAt.toISOString() } };
    }
    case 'code_pending':
      return { ...open, state: 'awaiting_code', pairingCode: session.pairingCode };
    case 'pairing':
    case 'open':
      return { ...open, state: 'pairing' };
    case 'logged_out':
      return { ...base, state: 'idle' };
    default:
      return { ...open, state: 'starting' };
  }
}

export const getQrchatQr: Handler<'getQrchatQr'> = async (request, services) => {
  const account = await findAccount(services.db, principalOf(request), idOf('acc', request.params.id));
  assertQrchat(account);
  return { status: 200, body: await presentQr(account, await readSession(services.db, account.id)) };
};
