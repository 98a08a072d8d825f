import type Router from '@koa/router';
import type { Context } from 'koa';
import type { MountedSandbox, SandboxPart, StoredState } from '../sandbox-platform.js';
import {
  type Authority,
  createAuthority,
  encryptedKeyPem,
  issuePassTypeCertificate,
  serverCertificate,
  type ServerCertificate,
  toP12Base64,
} from './authority.js';
import { type Phone, Phones } from './phones.js';
import { WALLET_CONTROLS } from './controls.js';
import { type PushFailure, PushService } from './push-service.js';

/**
 * The wallet vendor's side of passes, in the sandbox: its certificate authority (a root and a WWDR-like
 * intermediate, kept under DATA_DIR/sandbox so certificates issued before a restart stay valid), which issues pass
 * type certificates on request; its HTTP/2 push service; and simulated phones that add passes and follow their
 * updates. The service is given the authority and the push service's address when its operator configured no
 * vendor files; `/wallet-vendor/trust` shows them to people.
 */
export const walletSandbox: SandboxPart = { key: 'wallet', mount: mountWalletSandbox, controls: WALLET_CONTROLS };

function mountWalletSandbox(router: Router, _sandboxUrl: string, stored: StoredState): MountedSandbox {
  const restored = stored.restored as { authority?: Authority; pushCertificate?: ServerCertificate } | undefined;
  // Made while the service starts, the keys in node's thread pool: its event loop goes on loading the service.
  const authorityMade = restored?.authority ? Promise.resolve(restored.authority) : createAuthority();
  // Kept as the authority is (issued again with a new authority): an RSA key made and signed at every start cost
  // each start a noticeable part of it.
  const pushCertificateMade = serverCertificate(authorityMade, restored?.authority && restored.pushCertificate);
  let kept: { authority: Authority; pushCertificate: ServerCertificate } | undefined;
  const vendor = Promise.all([authorityMade, pushCertificateMade]).then(([authority, pushCertificate]) => {
    kept = { authority, pushCertificate };
    stored.saveNow();
    const push = new PushService(authority, pushCertificate, (token) => void phones.pushed(token));
    const phones = new Phones(
      () => authority.rootPem,
      (token) => push.issueToken(token),
    );
    return { authority, push, phones };
  });
  vendor.catch(() => {}); // awaited by every route and by standIn, which report it
  // Certificates "not issued by the vendor": a second authority nobody trusts, made when first asked for.
  let stranger: Promise<Authority> | undefined;

  router.get('/wallet-vendor/trust', async (ctx) => {
    const { authority, push } = await vendor;
    ctx.body = { rootCertificatePem: authority.rootPem, wwdrCertificatePem: authority.wwdrPem, pushUrl: await push.url };
  });

  // A pass type certificate as the vendor's developer site issues it (GET: for a person with a browser).
  const issue = async (ctx: Context, request: Record<string, unknown>) => {
    const passTypeIdentifier = String(request.passTypeIdentifier ?? '');
    const teamIdentifier = String(request.teamIdentifier ?? '');
    if (!/^pass\.[A-Za-z0-9.-]+$/.test(passTypeIdentifier) || !/^[A-Z0-9]{10}$/.test(teamIdentifier)) {
      ctx.status = 400;
      ctx.body = { error: 'passTypeIdentifier (pass.…) and teamIdentifier (10 capitals or digits) are required' };
      return;
    }
    const issuer = await (request.issuer === 'stranger' ? (stranger ??= createAuthority('Stranger Inc.')) : authorityMade);
    const issued = await issuePassTypeCertificate(issuer, {
      passTypeIdentifier,
      teamIdentifier,
      ...(request.organization ? { organization: String(request.organization) } : {}),
      ...(request.validFrom ? { validFrom: new Date(String(request.validFrom)) } : {}),
      ...(request.validUntil ? { validUntil: new Date(String(request.validUntil)) } : {}),
    });
    const passphrase = request.passphrase ? String(request.passphrase) : null;
    ctx.body = {
      certificatePem: issued.certificatePem,
      privateKeyPem: passphrase ? encryptedKeyPem(issued.privateKeyPem, passphrase) : issued.privateKeyPem,
      p12Base64: toP12Base64(issued.certificatePem, issued.privateKeyPem, passphrase ?? ''),
      wwdrCertificatePem: issuer.wwdrPem,
      rootCertificatePem: issuer.rootPem,
    };
  };
  router.post('/_sandbox/wallet/certificates', (ctx) => issue(ctx, ctx.request.body as Record<string, unknown>));
  router.get('/_sandbox/wallet/certificates', (ctx) => issue(ctx, ctx.query as Record<string, unknown>));

  const phoneOf = (ctx: Context, phones: Phones): Phone | undefined => {
    const phone = phones.get(String(ctx.params.id));
    if (!phone) {
      ctx.status = 404;
      ctx.body = { error: 'no such phone' };
    }
    return phone;
  };
  router.post('/_sandbox/wallet/phones', async (ctx) => {
    const { phones } = await vendor;
    ctx.status = 201;
    ctx.body = presentPhone(phones.create());
  });
  // Every phone in brief: how many pushes reached it and how many updated passes it fetched.
  router.get('/_sandbox/wallet/phones', async (ctx) => {
    const { phones } = await vendor;
    ctx.body = phones.all().map((phone) => ({
      id: phone.id,
      pushes: phone.pushes,
      updates: [...phone.passes.values()].reduce((sum, held) => sum + held.updates, 0),
      errors: phone.errors,
    }));
  });
  router.get('/_sandbox/wallet/phones/:id', async (ctx) => {
    const phone = phoneOf(ctx, (await vendor).phones);
    if (phone) ctx.body = presentPhone(phone);
  });
  router.post('/_sandbox/wallet/phones/:id/passes', async (ctx) => {
    const { phones } = await vendor;
    const phone = phoneOf(ctx, phones);
    if (!phone) return;
    try {
      await phones.addPass(phone, String((ctx.request.body as { downloadUrl?: string }).downloadUrl));
      ctx.status = 201;
      ctx.body = presentPhone(phone);
    } catch (error) {
      ctx.status = 422;
      ctx.body = { error: (error as Error).message };
    }
  });
  router.delete('/_sandbox/wallet/phones/:id/passes/:passTypeIdentifier/:serialNumber', async (ctx) => {
    const { phones } = await vendor;
    const phone = phoneOf(ctx, phones);
    if (phone)
      ctx.body = { status: await phones.removePass(phone, String(ctx.params.passTypeIdentifier), String(ctx.params.serialNumber)) };
  });
  // The phone's wallet was reset: its push token is no longer valid (the push service answers 410).
  router.post('/_sandbox/wallet/phones/:id/leave', async (ctx) => {
    const { push, phones } = await vendor;
    const phone = phoneOf(ctx, phones);
    if (!phone) return;
    push.unregister(phone.pushToken);
    ctx.body = presentPhone(phone);
  });
  router.post('/_sandbox/wallet/push/fail-next', async (ctx) => {
    const { push } = await vendor;
    const { status, reason, times } = ctx.request.body as unknown as PushFailure & { times?: number };
    push.failNext({ status, reason }, times ?? 1);
    ctx.status = 204;
  });
  router.get('/_sandbox/wallet/push/answered', async (ctx) => {
    ctx.body = (await vendor).push.answered;
  });

  return {
    // Closed once made, if it is still being made.
    close: () =>
      void vendor.then(
        ({ push }) => push.close(),
        () => {},
      ),
    // Until it is made, what was kept (or nothing): it is written again once made.
    state: () => kept ?? restored ?? {},
    standIn: async (config) => {
      if (config.wallet.rootCaFile && config.wallet.wwdrFile) return config;
      const { authority, push } = await vendor;
      // The push service's TLS certificate is the authority's own.
      const served = { rootPem: authority.rootPem, wwdrPem: authority.wwdrPem, pushUrl: await push.url, pushCaPem: authority.rootPem };
      return { ...config, wallet: { ...config.wallet, vendor: served } };
    },
  };
}

function presentPhone(phone: Phone) {
  return {
    id: phone.id,
    libraryIdentifier: phone.libraryIdentifier,
    pushToken: phone.pushToken,
    pushes: phone.pushes,
    errors: phone.errors,
    passes: [...phone.passes.values()],
  };
}
