import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { withSandboxDefaults } from '../../src/sandbox/platforms.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { newOwner, type TestOwner } from '../support/owners.js';
import { type Sandbox as SandboxPeople, sandboxOf } from '../support/sandbox/index.js';
import { postNow } from '../modules/publishing/posts-support.js';
import { until } from '../support/wait.js';

/** What a test of a sandbox restart works with: the service, its owner, the sandbox's people, and the restart. */
export interface RestartTest {
  readonly app: TestApp;
  readonly owner: TestOwner;
  readonly people: SandboxPeople;
  /** Stops the sandbox and starts it again at the same address on the same state folder. */
  restart(): Promise<void>;
  /** A post to the account (`text`, and the rest of the body), published now; the platform's id of it. */
  publish(accountId: string, text: string, body?: Record<string, unknown>): Promise<string>;
}

/**
 * A suite whose service talks to a sandbox of its own, started on a state folder (as the service's own one is, in
 * DATA_DIR/sandbox), so that a test can restart the sandbox under accounts the service connected.
 */
export function describeRestart(title: string, fn: (t: RestartTest) => void): void {
  describe(title, () => {
    let stateDir: string;
    let sandbox: Sandbox;
    let app: TestApp | undefined;
    let owner: TestOwner | undefined;

    before('start the sandbox on a state folder, and the service on it', async () => {
      stateDir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
      sandbox = await startSandbox({ port: 0, stateDir });
      const started = await startTestApp({
        sandbox: { mode: 'off', port: 0 },
        platforms: withSandboxDefaults(loadConfig({}).platforms, sandbox.url),
      });
      // The people's drivers find the sandbox where the service would have started its own.
      app = { ...started, services: Object.create(started.services, { sandboxUrl: { value: sandbox.url } }) as TestApp['services'] };
    });
    beforeEach('sign up an owner', async () => {
      owner = await newOwner(app!.api);
    });
    after('close the service and the sandbox', async () => {
      await app?.close();
      await sandbox?.close();
      rmSync(stateDir, { recursive: true, force: true });
    });

    const test: RestartTest = {
      get app() {
        return app!;
      },
      get owner() {
        return owner!;
      },
      people: sandboxOf(() => app!),
      restart: async () => {
        const { port } = new URL(sandbox.url);
        await sandbox.close();
        sandbox = await startSandbox({ port: Number(port), stateDir });
        // This process's connections pooled to the stopped sandbox fail once each before they are dropped: a
        // read that gets through means the next requests go out on fresh ones.
        await until(
          () =>
            fetch(sandbox.url).then(
              (answer) => answer.ok,
              () => false,
            ),
          {
            what: 'the restarted sandbox to answer on a fresh connection',
          },
        );
      },
      publish: async (accountId, text, body = {}) => {
        const post = await postNow(app!, owner!, { text, accountIds: [accountId], ...body });
        expect(post.status, JSON.stringify(post.targets)).to.equal('published');
        return post.targets[0].platformPostId as string;
      },
    };
    fn(test);
  });
}
