import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readPostmasterLock } from '../../src/db/postmaster-lock.js';
import { cleanUp, hasEnded, processesRunning, Scene, until } from './service.js';

describe('npm start after a crash: the embedded PostgreSQL never outlives its service, and a start recovers by itself', function () {
  this.timeout(180_000);
  afterEach(cleanUp);

  it('stops the embedded PostgreSQL when only the Node process is killed, and the next start answers /health', async () => {
    const scene = await Scene.create();
    const first = scene.start();
    const servicePid = await first.started();
    const server = readPostmasterLock(scene.postgresDir)!;

    process.kill(servicePid, 'SIGKILL');

    await until(() => hasEnded(server.pid), 'the embedded PostgreSQL of the killed service has stopped', 30_000);
    expect(existsSync(`${scene.postgresDir}/postmaster.pid`), 'it stopped cleanly, removing its lock file').to.equal(false);
    const second = scene.start();
    await second.started();
    const health = await (await scene.api()).get('/health');
    expect(health.status).to.equal(200);
    expect(health.body.checks.database.status).to.equal('ok');
  });

  it('stops, at the next start, a PostgreSQL left running on its data folder with nothing watching it', async () => {
    const scene = await Scene.create();
    const first = scene.start();
    const servicePid = await first.started();
    const server = readPostmasterLock(scene.postgresDir)!;
    // Both the service and its watchdog die at once, as a server started by an older version was left.
    for (const watchdog of processesRunning(`socialgate-postgres-watchdog ${server.pid}`)) process.kill(watchdog, 'SIGKILL');
    process.kill(servicePid, 'SIGKILL');
    await first.exited();
    expect(hasEnded(server.pid), 'the server is left running').to.equal(false);

    const second = scene.start();
    await second.started();

    expect(hasEnded(server.pid)).to.equal(true);
    expect(second.log.map((line) => line.msg)).to.include('stopping the embedded PostgreSQL that a Socialgate left running when it ended');
    const health = await (await scene.api()).get('/health');
    expect(health.body.checks.database.status).to.equal('ok');
  });

  it('refuses a second instance on the same data folder in a sentence, and leaves the first one running', async () => {
    const scene = await Scene.create();
    const first = scene.start();
    const firstPid = await first.started();

    const second = scene.start();

    expect(await second.exited()).to.equal(1);
    const fatal = second.log.find((line) => line.level === 60)!;
    expect(fatal.code).to.equal('data_folder_in_use');
    expect(fatal.msg).to.equal(
      `could not start: the embedded PostgreSQL in ${scene.postgresDir} is in use by another Socialgate that is running (process ${firstPid}): ` +
        'stop that one first, or give this one a DATA_DIR of its own',
    );
    expect(second.text).to.include(`Socialgate could not start: the embedded PostgreSQL in ${scene.postgresDir} is in use`);
    const health = await (await scene.api()).get('/health');
    expect(health.body.checks.database.status).to.equal('ok');
  });
});
