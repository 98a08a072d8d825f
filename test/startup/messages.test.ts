import { expect } from 'chai';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { cleanUp, Scene, type ServiceProcess } from './service.js';

/** Another program on the port. */
async function occupy(port: string): Promise<Server> {
  const other = createServer();
  other.listen(Number(port), '127.0.0.1');
  await once(other, 'listening');
  return other;
}

/** The one line a failed start logs at the default level, and the same sentence for a person on stderr. */
async function failure(service: ServiceProcess): Promise<{ code: unknown; msg: string }> {
  expect(await service.exited(), 'the exit code').to.equal(1);
  const fatal = service.log.filter((line) => line.level >= 50);
  expect(fatal, service.text).to.have.length(1);
  expect(service.text).to.include(`Socialgate could not start: ${fatal[0]!.msg.replace('could not start: ', '')}`);
  return { code: fatal[0]!.code, msg: fatal[0]!.msg };
}

describe('npm start says why it cannot start, in words, at the default log level', function () {
  this.timeout(120_000);
  afterEach(cleanUp);

  for (const setting of ['PORT', 'SANDBOX_PORT', 'EMBEDDED_PG_PORT'] as const) {
    it(`names ${setting} when its port is taken by another program`, async () => {
      const scene = await Scene.create();
      const port = scene.settings[setting];
      const other = await occupy(port);
      try {
        const { code, msg } = await failure(scene.start());
        expect(code).to.equal('port_in_use');
        expect(msg).to.equal(
          `could not start: port ${port} is in use by another program (another Socialgate?): stop it, or set ${setting} to a free port`,
        );
      } finally {
        other.close();
      }
    });
  }

  it('passes on what PostgreSQL says when its server cannot start on the data folder', async () => {
    const scene = await Scene.create();
    mkdirSync(scene.settings.DATA_DIR);
    mkdirSync(scene.postgresDir, { mode: 0o700 });
    // A data folder that lost its files (an interrupted initdb, a careless clean-up).
    writeFileSync(join(scene.postgresDir, 'PG_VERSION'), '18\n');
    const { code, msg } = await failure(scene.start());
    expect(code).to.equal('embedded_postgres_failed');
    expect(msg).to.equal(
      'could not start: the embedded PostgreSQL did not start (exit code 2): ' +
        `postgres: could not access the server configuration file "${join(scene.postgresDir, 'postgresql.conf')}": No such file or directory`,
    );
  });

  it('names a wrong setting and what it must be, without a stack trace', async () => {
    const scene = await Scene.create();
    const service = scene.start({ PORT: 'eighty' });
    const { code, msg } = await failure(service);
    expect(code).to.equal('bad_setting');
    expect(msg).to.equal('could not start: a setting is wrong: PORT must be a non-negative integer, got "eighty"');
    expect(service.text).not.to.match(/^\s+at /m);
  });

  it('stops on a Ctrl-C (SIGINT to its terminal’s process group), logging no warning and no stack trace', async () => {
    const scene = await Scene.create();
    const service = scene.start();
    await service.started();
    const api = await scene.api();
    expect((await api.get('/health')).status).to.equal(200);

    // While it serves: what is in flight finishes on a database that is still there. Settled as they end: a
    // request refused once the service is gone rejects while the test waits for the exit, and must be listened to.
    const inFlight = Promise.allSettled(Array.from({ length: 20 }, () => api.get('/health')));
    service.signal('SIGINT');

    await service.exited();
    for (const answer of await inFlight) {
      if (answer.status === 'fulfilled') expect(answer.value.status).to.equal(200);
    }
    const said = service.log.map((line) => line.msg);
    expect(said).to.include('shutting down');
    expect(said.at(-1)).to.equal('stopped');
    expect(service.log.filter((line) => line.level >= 40)).to.deep.equal([]);
    expect(service.text).not.to.match(/^\s+at /m);
  });
});
