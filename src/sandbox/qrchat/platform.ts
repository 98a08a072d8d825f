import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { FakeQrNetwork, type QrNetworkSnapshot } from './network.js';

export { DEFAULT_TIMINGS, FakeQrNetwork } from './network.js';

/** A phone every sandbox person uses unless they say otherwise. */
export const DEMO_PHONE_NUMBER = '+4915112345678';

/**
 * The people of the QR-paired chat app, under `/_sandbox/qrchat/…`. There is no platform API here: the service
 * reaches the fake servers through the sandbox driver in its own process (network.ts). A person scans a QR or
 * types a pairing code with a phone, writes to a paired number, reads what linked devices sent it (the senders get receipts), or logs the linked devices out on the phone.
 * The servers start from the devices they had linked before a restart (`restored`), if any.
 */
export function mountQrchat(router: Router, restored: QrNetworkSnapshot | undefined): FakeQrNetwork {
  const network = new FakeQrNetwork({}, restored);
  const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, string | undefined>;
  const fail = (ctx: RouterContext, status: number, error: string) => {
    ctx.status = status;
    ctx.body = { error };
  };

  router.post('/_sandbox/qrchat/scan', async (ctx) => {
    const { qr, phoneNumber = DEMO_PHONE_NUMBER, name = 'Acme Coffee' } = body(ctx);
    const outcome = await network.scan(String(qr ?? ''), phoneNumber, name);
    if (outcome === 'unknown') return fail(ctx, 404, 'no session shows this QR code');
    if (outcome === 'expired') return fail(ctx, 410, 'this QR code has expired; scan the current one');
    ctx.body = { deviceId: outcome.id, phoneNumber: `+${outcome.phoneNumber}` };
  });

  router.post('/_sandbox/qrchat/code', async (ctx) => {
    const { code, phoneNumber = DEMO_PHONE_NUMBER, name = 'Acme Coffee' } = body(ctx);
    const outcome = await network.enterCode(String(code ?? ''), phoneNumber, name);
    if (outcome === 'unknown') return fail(ctx, 404, 'no session waits for this code on this number');
    ctx.body = { deviceId: outcome.id, phoneNumber: `+${outcome.phoneNumber}` };
  });

  router.post('/_sandbox/qrchat/messages', (ctx) => {
    const { to = DEMO_PHONE_NUMBER, from = '+4917000000001', name = 'Sam', text = 'Hello!' } = body(ctx);
    ctx.body = { delivered: network.send(to, from, name, text) };
  });

  router.get('/_sandbox/qrchat/received', (ctx) => {
    ctx.body = { messages: network.received(String(ctx.query.phoneNumber ?? '')) };
  });

  router.post('/_sandbox/qrchat/read', (ctx) => {
    const { phoneNumber = '', from = DEMO_PHONE_NUMBER } = body(ctx);
    ctx.body = { read: network.read(phoneNumber, from) };
  });

  router.post('/_sandbox/qrchat/logout', (ctx) => {
    ctx.body = { loggedOut: network.logOut(body(ctx).phoneNumber ?? DEMO_PHONE_NUMBER) };
  });

  router.get('/_sandbox/qrchat/devices', (ctx) => {
    ctx.body = { devices: network.linkedDevices(String(ctx.query.phoneNumber ?? DEMO_PHONE_NUMBER)) };
  });

  return network;
}
