import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import type { Config } from '../config.js';
import { bodyRefusal, DEMO_CREDENTIALS, exampleBody } from './control-bodies.js';
import { SANDBOXES } from './platforms.js';
import type { MountedSandbox } from './sandbox-platform.js';
import { routesBySegment } from './routes-by-segment.js';
import { SandboxStateFiles } from './state-files.js';

export interface Sandbox {
  /** Base URL; each platform lives under its own prefix (`/botchat`), the people's controls under `/_sandbox`. */
  url: string;
  /** The service's configuration with everything the sandbox stands in for pointed here, where left unset. */
  standIn(config: Config): Promise<Config>;
  close(): Promise<void>;
}

/**
 * Local implementations of the platforms' protocols — the parts our adapters use — over real HTTP. The
 * service's adapters are pointed here when no real platform is configured; the tests use the same server.
 * It also plays the people on the platforms through its own `/_sandbox/...` endpoints (send a DM, revoke).
 * With `stateDir`, what the platforms keep (bots, tokens, webhooks, id counters) survives a restart.
 */
/** The root page: the people's controls, read from the routes mounted, so that it lists exactly what answers. */
function controlsPage(router: Router, url: string): string {
  const controls = router.stack
    .filter((layer) => typeof layer.path === 'string' && layer.path.startsWith('/_sandbox/'))
    .flatMap((layer) => {
      const methods = layer.methods.filter((method) => method !== 'HEAD');
      const example = exampleBody(`${methods[0]} ${layer.path}`);
      return [`${methods.join(',').padEnd(7)} ${url}${layer.path}`, ...(example ? [`        body: ${example}`] : [])];
    });
  return [
    'Socialgate platform sandbox',
    '',
    'Demo credentials:',
    ...DEMO_CREDENTIALS.map((line) => `  ${line}`),
    '',
    "Each platform's protocol lives under its own prefix (/botchat, /social_network, ...). The people on the",
    'platforms (a person writing to a bot, an owner revoking a token) are played through these controls',
    '(a body that does not fit is refused with 400 and the reason):',
    '',
    ...controls,
    '',
  ].join('\n');
}

export async function startSandbox(options: { port: number; host?: string; stateDir?: string }): Promise<Sandbox> {
  // Listening first: a platform's sandbox may need its own address (the qrchat driver finds its network by it).
  const server = createServer();
  server.listen(options.port, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const url = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  const files = new SandboxStateFiles(options.stateDir ?? null);
  const app = new Koa();
  const router = new Router();
  app.use(koaBody({ jsonLimit: '10mb', formLimit: '10mb', multipart: true }));
  // A control's body is checked against its schema here, in one place, before the control runs (the platforms' own
  // routes, matched here too, would pay a second routing per call).
  app.use(async (ctx, next) => {
    if (!ctx.path.startsWith('/_sandbox/')) return next();
    const route = router.match(ctx.path, ctx.method).pathAndMethod.at(-1)?.path;
    const refusal = typeof route === 'string' ? bodyRefusal(`${ctx.method} ${route}`, ctx.request.body) : undefined;
    if (refusal === undefined) return next();
    ctx.status = 400;
    ctx.body = { error: refusal };
  });
  // The platforms' links (a list's `paging.next`, a video's source) start from the address the caller reached: Koa 3's
  // `ctx.origin` is the request's Origin header (null from a server-side client), so it is that address here, as in Koa 2.
  // Defined once on the app's context, a getter: most calls never read it, and parsing the host cost each one.
  Object.defineProperty(app.context, 'origin', {
    get(this: Koa.Context) {
      return `${this.protocol}://${this.host}`;
    },
  });
  const mounted: Array<{ name: string; part: MountedSandbox | void }> = [];
  const save = (name: string, part: MountedSandbox | void) => {
    if (part?.state) files.write(name, part.state());
  };
  for (const sandbox of SANDBOXES) {
    const entry: { name: string; part: MountedSandbox | void } = { name: sandbox.key, part: undefined };
    entry.part = sandbox.mount(router, url, { restored: files.read(sandbox.key), saveNow: () => save(sandbox.key, entry.part) });
    // Written once mounted: what a part made as it started (the wallet vendor's authority) is kept from the start.
    save(entry.name, entry.part);
    mounted.push(entry);
  }
  // Every request but a read may change a platform's state; it is written once the request is answered, when a folder
  // keeps it (taking every platform's state at each call costs more than the call).
  if (options.stateDir)
    app.use(async (ctx, next) => {
      try {
        await next();
      } finally {
        if (ctx.method !== 'GET' && ctx.method !== 'HEAD') for (const { name, part } of mounted) save(name, part);
      }
    });
  router.get('/', (ctx) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = controlsPage(router, url);
  });
  app.use(routesBySegment(router));
  app.use(router.allowedMethods());
  server.on('request', app.callback());
  return {
    url,
    standIn: async (config) => {
      let served = config;
      for (const { part } of mounted) if (part?.standIn) served = await part.standIn(served);
      return served;
    },
    close: async () => {
      for (const { part } of mounted) part?.close?.();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
