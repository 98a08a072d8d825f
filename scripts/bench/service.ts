/**
 * What the in-process benchmarks share: the sandbox and a platform's webhook sender in child processes, the
 * service in this one (API and worker roles, booted as `npm start` boots them) on its own embedded PostgreSQL in
 * folders removed at exit, with the CPU that server uses, a JSON caller of its API, and percentiles.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../src/app.js';
import { boot } from '../../src/boot.js';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { loadConfig } from '../../src/config.js';
import { SANDBOX_ADS_APP } from '../../src/sandbox/short-video-ads/demo.js';
import type { Services } from '../../src/services.js';
import { freePort, postgresCpuSeconds, processCpuSeconds } from './processes.js';
import type { SendAnswer, SendCommand } from './webhook-sender.js';

/** The value at percentile `p` of values sorted ascending (NaN for none). */
export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface SandboxChild {
  url: string;
  /** The CPU seconds the sandbox's process has used so far. */
  cpuSeconds(): number;
  stop(): void;
}

/** A bench script of this folder in a child process, without a CPU profiler when this one has one. */
function forkBenchChild(file: string): ChildProcess {
  return fork(fileURLToPath(new URL(file, import.meta.url)), [], {
    execArgv: process.execArgv.filter((arg) => !arg.startsWith('--cpu-prof')),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** Starts the sandbox in a child process and answers its address. */
export async function forkSandbox(): Promise<SandboxChild> {
  const child = forkBenchChild('./sandbox-child.ts');
  const [{ url }] = (await once(child, 'message')) as [{ url: string }];
  return { url, cpuSeconds: () => processCpuSeconds(child.pid!), stop: () => child.disconnect() };
}

export interface WebhookSender {
  /** Sends the requests to `url`, `concurrency` at a time; answers when each was sent (epoch ms, in their order). */
  send(url: string, requests: SendCommand['requests'], concurrency?: number): Promise<number[]>;
  /** The CPU seconds the sender's process has used so far. */
  cpuSeconds(): number;
  stop(): void;
}

/** Starts a platform's webhook sender in a child process (webhook-sender.ts). */
export async function forkWebhookSender(): Promise<WebhookSender> {
  const child = forkBenchChild('./webhook-sender.ts');
  await once(child, 'message');
  return {
    send: async (url, requests, concurrency = 32) => {
      const answer = once(child, 'message') as Promise<[SendAnswer]>;
      child.send({ url, concurrency, requests } satisfies SendCommand);
      const [result] = await answer;
      if ('error' in result) throw new Error(result.error);
      return result.sentAt;
    },
    cpuSeconds: () => processCpuSeconds(child.pid!),
    stop: () => child.disconnect(),
  };
}

export type ApiCall = (method: string, path: string, token: string | null, body?: unknown) => Promise<any>;

export interface BenchService {
  api: string;
  services: Services;
  call: ApiCall;
  /** The CPU seconds its PostgreSQL server has used so far. */
  postgresCpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * Boots the service with `env` (read as the service reads its environment; the API rate limit is lifted) on a
 * fresh embedded PostgreSQL and serves it on `port` (0: any). `env` may be computed in the service's data folder.
 */
export async function startBenchService(
  env: Record<string, string> | ((dataDir: string) => Record<string, string>),
  port = 0,
): Promise<BenchService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'socialgate-bench-'));
  const pgDir = mkdtempSync(join(tmpdir(), 'socialgate-bench-pg-'));
  process.on('exit', () => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(pgDir, { recursive: true, force: true });
  });
  const pg = await startEmbeddedPostgres({
    dir: pgDir,
    port: await freePort(),
    database: 'bench',
    persistent: false,
  });
  const booted = await boot({
    ...loadConfig({ SANDBOX_PORT: '0', RATE_LIMIT_PER_MINUTE: '100000000', ...(typeof env === 'function' ? env(dataDir) : env) }),
    databaseUrl: pg.url,
    logLevel: 'warn',
    dataDir,
    encryptionKey: randomBytes(32).toString('base64'),
  });
  const server = createApp(booted.services).listen(port, '127.0.0.1');
  await once(server, 'listening');
  const api = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const call: ApiCall = async (method, path, token, body) => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    api,
    services: booted.services,
    call,
    postgresCpuSeconds: () => postgresCpuSeconds(pgDir),
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await booted.shutdown();
      await pg.stop();
    },
  };
}

/** Signs up the bench's owner and answers an API key of theirs. */
export async function benchOwnerKey(call: ApiCall): Promise<string> {
  const signUp = await call('POST', '/auth/signup', null, { email: 'bench@example.com', password: 'bench password 123' });
  return (await call('POST', '/api-keys', signUp.session.token, { name: 'bench' })).key as string;
}

/** A bot made on the sandbox's bot platform and connected to the profile: the account's id. */
export async function connectSandboxBot(call: ApiCall, sandboxUrl: string, key: string, profileId: string): Promise<string> {
  const made = await fetch(`${sandboxUrl}/_sandbox/botchat/bots`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  const bot = (await made.json()) as { token: string };
  return (await call('POST', '/connect/botchat', key, { profileId, botToken: bot.token })).id as string;
}

/**
 * Connects the pages of the person signed in to the sandbox's login dialog to the profile, through the dialog as a
 * browser goes through it; the connection's answer (`data`: the accounts).
 */
export async function connectPagesByDialog(call: ApiCall, api: string, key: string, profileId: string, pageIds: string[]): Promise<any> {
  const started = await call(
    'GET',
    `/connect/social_network?profileId=${profileId}&redirectUrl=${encodeURIComponent('http://localhost:9/done')}`,
    key,
  );
  const dialog = await (await fetch(started.authorizationUrl)).text();
  const form = new URLSearchParams(
    [...dialog.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, n, v]) => [n!, v!.replace(/&quot;/g, '"')]),
  );
  form.set('decision', 'approve');
  const action = /<form method="post" action="([^"]+)"/.exec(dialog)![1]!;
  const back = (await fetch(new URL(action, started.authorizationUrl), { method: 'POST', body: form, redirect: 'manual' })).headers.get(
    'location',
  )!;
  const callback = await fetch(`${api}${new URL(back).pathname}${new URL(back).search}`, { redirect: 'manual' });
  const pendingConnectionId = new URL(callback.headers.get('location')!).searchParams.get('pendingConnectionId')!;
  return call('POST', `/profiles/${profileId}/connect/social_network`, key, { pendingConnectionId, platformPageIds: pageIds });
}

/** A control of the sandbox's social network (`/_sandbox/social_network/…`): GET without a body, POST with one. */
export function socialNetworkControl(sandboxUrl: string): (path: string, body?: unknown) => Promise<any> {
  return async (path, body) => {
    const response = await fetch(`${sandboxUrl}/_sandbox/social_network/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as any;
  };
}

/** A short_video_ads advertiser connected to the profile by its consent, as a browser gives it, then our callback: its `adacc_…` id. */
export async function connectAdvertiserByConsent(
  call: ApiCall,
  api: string,
  key: string,
  profileId: string,
  advertiserId: string,
): Promise<string> {
  const started = await call(
    'GET',
    `/connect/short_video_ads?profileId=${profileId}&redirectUrl=${encodeURIComponent('http://localhost:9/done')}`,
    key,
  );
  const page = await (await fetch(started.authorizationUrl)).text();
  const form = new URLSearchParams(
    [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, n, v]) => [n!, v!.replace(/&quot;/g, '"')]),
  );
  form.set('advertiser_ids', advertiserId);
  form.set('decision', 'approve');
  const action = /<form method="post" action="([^"]+)"/.exec(page)![1]!;
  const back = (await fetch(new URL(action, started.authorizationUrl), { method: 'POST', body: form, redirect: 'manual' })).headers.get(
    'location',
  )!;
  const callback = await fetch(`${api}${new URL(back).pathname}${new URL(back).search}`, { redirect: 'manual' });
  return new URL(callback.headers.get('location')!).searchParams.get('adAccountIds')!;
}

export interface AdAccountBench extends BenchService {
  sandbox: SandboxChild;
  /** The bench owner's API key. */
  key: string;
  /** A new advertiser of TikTok's Business API sandbox, connected as the owner's ad account. */
  adAccountId: string;
}

/** The service beside a forked sandbox standing in for TikTok's Business API, with a fresh advertiser connected by consent. */
export async function startAdAccountBench(): Promise<AdAccountBench> {
  const sandbox = await forkSandbox();
  const service = await startBenchService({
    SHORT_VIDEO_ADS_APP_ID: SANDBOX_ADS_APP.appId,
    SHORT_VIDEO_ADS_APP_SECRET: SANDBOX_ADS_APP.secret,
    SHORT_VIDEO_ADS_AUTH_URL: `${sandbox.url}/short_video_ads/portal/auth`,
    SHORT_VIDEO_ADS_API_URL: `${sandbox.url}/short_video_ads/open_api/v1.3`,
  });
  const stop = async () => {
    await service.stop();
    sandbox.stop();
  };
  try {
    const key = await benchOwnerKey(service.call);
    const profileId = (await service.call('POST', '/profiles', key, { name: 'Bench' })).id as string;
    const advertiser = (await (
      await fetch(`${sandbox.url}/_sandbox/short_video_ads/advertisers`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Bench Ads', currency: 'USD', status: 'STATUS_ENABLE' }),
      })
    ).json()) as { advertiser_id: string };
    const adAccountId = await connectAdvertiserByConsent(service.call, service.api, key, profileId, advertiser.advertiser_id);
    return { ...service, sandbox, key, adAccountId, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
