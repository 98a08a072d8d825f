import { expect } from 'chai';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { freePort } from '../support/net.js';

/** How a client of the URL reaches the server: over its Unix-domain socket (no client address) or over TCP. */
async function reachedOver(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ address: string | null }>('SELECT inet_client_addr()::text AS address');
    return rows[0]!.address ?? 'socket';
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL', function () {
  this.timeout(120_000);
  let folder: string;
  beforeEach(() => {
    // Open to others, as the server may run as the user postgres, and with room for a long path inside.
    folder = mkdtempSync(join(tmpdir(), 'socialgate-embedded-'));
    chmodSync(folder, 0o755);
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('gives a URL over its Unix-domain socket, in a folder of its own in the data folder', async () => {
    const dir = join(folder, 'postgres');
    const server = await startEmbeddedPostgres({ dir, port: await freePort(), database: 'app', persistent: false });
    try {
      expect(new URL(server.url).searchParams.get('host')).to.equal(join(dir, 'socket'));
      expect(await reachedOver(server.url)).to.equal('socket');
    } finally {
      await server.stop();
    }
  });

  it('gives a URL over TCP on 127.0.0.1 when the path of its socket would be too long for the system', async () => {
    const dir = join(folder, 'd'.repeat(100), 'postgres');
    const server = await startEmbeddedPostgres({ dir, port: await freePort(), database: 'app', persistent: false });
    try {
      expect(new URL(server.url).searchParams.has('host')).to.equal(false);
      expect(await reachedOver(server.url)).to.equal('127.0.0.1/32');
    } finally {
      await server.stop();
    }
  });
});
