// What both leads benchmarks start from: the service and the sandbox, and one page connected with a form on it.
import { SANDBOX_APP } from '../../src/sandbox/social-network/demo.js';
import { freePort } from './processes.js';
import { type BenchService, benchOwnerKey, connectPagesByDialog, forkSandbox, type SandboxChild, startBenchService } from './service.js';

/** A sandbox control of the social network (`/_sandbox/social_network/…`): GET without a body, else POST. */
export async function socialControl(sandboxUrl: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${sandboxUrl}/_sandbox/social_network/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

export interface LeadsBench {
  service: BenchService;
  sandbox: SandboxChild;
  key: string;
  profileId: string;
  page: { accountId: string; pageId: string };
  /** A form of the page made in the platform's tools (full name and email). */
  formId: string;
}

/** The service (its public URL its own, so the sandbox's webhooks reach it) and a person's page connected to a profile. */
export async function startLeadsBench(): Promise<LeadsBench> {
  const sandbox = await forkSandbox();
  const port = await freePort();
  const service = await startBenchService(
    {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SOCIAL_NETWORK_APP_ID: SANDBOX_APP.id,
      SOCIAL_NETWORK_APP_SECRET: SANDBOX_APP.secret,
      SOCIAL_NETWORK_GRAPH_URL: `${sandbox.url}/social_network/graph`,
      SOCIAL_NETWORK_DIALOG_URL: `${sandbox.url}/social_network/www`,
    },
    port,
  );
  const key = await benchOwnerKey(service.call);
  const profileId = (await service.call('POST', '/profiles', key, { name: 'Bench' })).id as string;
  const person = await socialControl(sandbox.url, 'users', { name: 'Bench', pages: 1, adAccounts: 0 });
  await socialControl(sandbox.url, 'login', { userId: person.userId });
  const connected = await connectPagesByDialog(service.call, service.api, key, profileId, person.pageIds);
  const page = { accountId: connected.data[0].id as string, pageId: person.pageIds[0] as string };
  const form = await socialControl(sandbox.url, 'lead-forms', {
    pageId: page.pageId,
    questions: [
      { type: 'FULL_NAME', key: 'full_name' },
      { type: 'EMAIL', key: 'email' },
    ],
  });
  return { service, sandbox, key, profileId, page, formId: form.id as string };
}
