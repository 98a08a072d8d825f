import QRCode from 'qrcode';
import type { components } from '../../../generated/api.js';
import { type Handler, principalOf } from '../../http/handler.js';
import { ApiError, NotFoundError, UnprocessableError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import { findAccount } from '../accounts/accounts.js';
import { AccountRow } from '../accounts/models.js';
import { presentAccount } from '../accounts/present.js';
import { findProfile } from '../accounts/profiles.js';
import { platformToConnect } from './platform.js';
import { OPEN_JOB, QrchatSessions } from './qrchat-sessions.js';
import { readSession, type SessionRow, startWindow } from './qrchat-store.js';

type QrchatQr = components['schemas']['QrchatQr'];

/** How long a pairing window stays open (the QR rotates inside it). */
export const PAIRING_WINDOW_MS = 5 * 60_000;

/** The session manager of this process and the job that opens sessions; called where jobs are registered. */
export function registerQrchat(services: Services): void {
  const adapter = services.platforms.get('qrchat');
  // An instance running without qrchat has no sessions to hold.
  if (!adapter) return;
  const manager = new QrchatSessions(services, adapter);
  services.scheduler.define<{ accountId: string }>(OPEN_JOB, (data) => manager.open(data.accountId));
  manager.start();
}

/**
 * Creates a `pending` account (or puts an existing one of the profile back to `pending`), opens a pairing window
 * and leaves opening the session to a worker (job `qrchat.open`): the QR shows up at GET …/qrchat/qr.
 */
export const connectQrchat: Handler<'connectQrchat'> = async (request, services) => {
  const principal = principalOf(request);
  const input = request.body;
  await findProfile(services.db, principal, input.profileId);
  // Refused before any window opens where this instance runs without qrchat.
  platformToConnect(services, 'qrchat');
  const phoneNumber = input.phoneNumber ? `+${input.phoneNumber.replace(/^\+/, '')}` : null;
  const window = { expiresAt: new Date(Date.now() + PAIRING_WINDOW_MS), phoneNumber };
  const { row, created } = await services.db.transaction(async (trx) => {
    if (input.accountId) {
      const existing = await AccountRow.query(trx).findOne({ id: input.accountId, ownerId: principal.ownerId }).forUpdate();
      if (!existing || existing.profileId !== input.profileId) throw new NotFoundError('account in this profile');
      if (existing.platform !== 'qrchat') {
        throw new UnprocessableError('account_platform_unsupported', 'Not supported for this account', `${existing.id} is a ${existing.platform} account, not a qrchat account.`);
      }
      if (existing.status === 'connected') {
        throw new ApiError(409, 'account_already_connected', 'Account already connected', `${existing.id} is paired and connected; disconnect it before pairing it again.`);
      }
      const [updated] = await AccountRow.query(trx).patch({
        status: 'pending', statusReason: 'awaiting_pairing', name: existing.platformAccountId ? existing.name : (phoneNumber ?? 'Pending pairing'),
        lastError: null, updatedAt: new Date(),
      }).where({ id: existing.id }).returning('*');
      await startWindow(trx, existing.id, window);
      return { row: updated!, created: false };
    }
    const inserted = await AccountRow.query(trx).insertAndFetch({
      id: newId('acc'), ownerId: principal.ownerId, profileId: input.profileId, platform: 'qrchat', kind: 'phone_number',
      platformAccountId: null, name: phoneNumber ?? 'Pending pairing', username: null, avatarUrl: null, status: 'pending',
      statusReason: 'awaiting_pairing', scopes: [], credentialsCiphertext: null, tokenExpiresAt: null, connectedAt: null,
    });
    await startWindow(trx, inserted.id, window);
    return { row: inserted, created: true };
  });
  await services.scheduler.now(OPEN_JOB, { accountId: row.id });
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
  const account = await findAccount(services.db, principalOf(request), request.params.id);
  if (account.platform !== 'qrchat') {
    throw new UnprocessableError('account_platform_unsupported', 'Not supported for this account', `${account.id} is a ${account.platform} account, not a qrchat account.`);
  }
  return { status: 200, body: await presentQr(account, await readSession(services.db, account.id)) };
};
