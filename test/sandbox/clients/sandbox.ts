import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';

/** What a file of client-library checks talks to. */
export interface ClientCheck {
  /** The sandbox's base URL. */
  url(): string;
  /** A small PNG served on this machine (`/photo.png`), as a service serves its media at its public URL. */
  photoUrl(): string;
  /**
   * Runs `check` with `platform` strict: refusing the URLs a real platform could not reach (this machine's, as
   * the photo's), as it does for a deployment whose PUBLIC_URL is local.
   */
  strictly(platform: string, check: () => Promise<void>): Promise<void>;
}

/**
 * The sandbox a file of client-library checks talks to, and a file server for the media a platform pulls by URL:
 * started once for the file (before its first test), closed after its last.
 */
export function sandboxForFile(): ClientCheck {
  let sandbox: Sandbox | undefined;
  let files: Server | undefined;
  before('start the sandbox and the file server', async () => {
    sandbox = await startSandbox({ port: 0 });
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c04020' } })
      .png()
      .toBuffer();
    files = createServer((request, response) => {
      if (request.url !== '/photo.png') return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': photo.length }).end(photo);
    }).listen(0, '127.0.0.1');
    await once(files, 'listening');
  });
  after('close the sandbox and the file server', async () => {
    await sandbox?.close();
    files?.closeAllConnections();
    await new Promise((resolve) => (files ? files.close(resolve) : resolve(undefined)));
  });
  const started = () => {
    if (!sandbox || !files) throw new Error('the sandbox starts before the first test: use it in a test or a hook');
    return { sandbox, files };
  };
  const strict = async (platform: string, on: boolean) => {
    const answer = await fetch(`${started().sandbox.url}/_sandbox/${platform}/strict`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ strict: on }),
    });
    if (answer.status !== 200) throw new Error(`${platform} has no strict mode (HTTP ${answer.status})`);
  };
  return {
    strictly: async (platform, check) => {
      await strict(platform, true);
      try {
        await check();
      } finally {
        await strict(platform, false);
      }
    },
    url: () => started().sandbox.url,
    photoUrl: () => `http://127.0.0.1:${(started().files.address() as AddressInfo).port}/photo.png`,
  };
}
