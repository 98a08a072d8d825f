import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { templateOf } from '../../src/db/embedded.js';
import { SERVICE_DATABASE } from '../../src/db/open.js';
import { findPostgresBinaries } from '../../src/db/postgres-binaries.js';
import { cleanUp, Scene } from './service.js';

/** What the cluster in `dataDir` is called, unique to each initdb: the first field of its pg_control. */
function systemIdentifierOf(dataDir: string): string {
  return readFileSync(join(dataDir, 'global', 'pg_control'))
    .readBigUInt64LE(0)
    .toString();
}

async function query<T extends pg.QueryResultRow>(scene: Scene, sql: string): Promise<T[]> {
  const client = new pg.Client({
    connectionString: `postgres://postgres:postgres@127.0.0.1:${scene.settings.EMBEDDED_PG_PORT}/${SERVICE_DATABASE}`,
  });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('npm start on an empty data folder: a copy of the template npm ci made, or initdb when it was made otherwise', function () {
  this.timeout(180_000);
  afterEach(cleanUp);

  it('copies the template, whose database has every migration, and starts again on the copy', async () => {
    const template = await templateOf(findPostgresBinaries(), SERVICE_DATABASE);
    const scene = await Scene.create();
    const startedAt = new Date();
    const first = scene.start();
    await first.started();

    const [cluster] = await query<{ id: string }>(scene, 'SELECT system_identifier::text AS id FROM pg_control_system()');
    expect(cluster!.id, 'the cluster is the template’s').to.equal(systemIdentifierOf(template));
    const [migrated] = await query<{ at: Date }>(scene, 'SELECT max(migration_time) AS at FROM knex_migrations');
    expect(migrated!.at, 'migrated when the template was made, before this start').to.be.below(startedAt);
    first.signal('SIGTERM');
    await first.exited();

    const second = scene.start();
    await second.started();
    expect((await (await scene.api()).get('/health')).body.checks.database.status).to.equal('ok');
  });

  it('runs initdb when the template was made in another time zone, and the cluster has this one', async () => {
    const template = await templateOf(findPostgresBinaries(), SERVICE_DATABASE);
    const scene = await Scene.create();
    const service = scene.start({ TZ: 'America/Montevideo' });
    await service.started();

    const [cluster] = await query<{ id: string }>(scene, 'SELECT system_identifier::text AS id FROM pg_control_system()');
    expect(cluster!.id).not.to.equal(systemIdentifierOf(template));
    expect(await query(scene, 'SHOW TimeZone')).to.deep.equal([{ TimeZone: 'America/Montevideo' }]);
    expect((await (await scene.api()).get('/health')).body.checks.database.status).to.equal('ok');
  });
});
