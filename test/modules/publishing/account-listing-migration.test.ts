import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { connect, type Db, migrate } from '../../../src/db/database.js';
import { createDatabaseIfMissing } from '../../../src/db/embedded.js';
import { loadMigrations, migrationSource } from '../../../src/db/migration-source.js';
import { adminUrl, withDatabase } from '../../fixtures.js';

const MIGRATION = '202611241517_publishing_account_post_listing';

describe('migration — targets carry their post’s scheduledAt for the list by account', () => {
  let db: Db;
  before(async () => {
    const name = `m_${randomBytes(6).toString('hex')}`;
    await createDatabaseIfMissing(adminUrl(), name);
    db = connect(withDatabase(adminUrl(), name), 2);
  });
  after(async () => {
    await db.destroy();
  });

  it('fills in the time of every target made before it, and its down migration takes the column away again', async () => {
    const migrations = await loadMigrations();
    await db.migrate.latest({ migrationSource: migrationSource(migrations.filter((m) => m.name < MIGRATION)) });
    const at = new Date('2027-02-03T04:05:06.789Z');
    await db('owners').insert({ id: 'own_before', email: 'before@example.com', passwordHash: 'x' });
    await db('profiles').insert({ id: 'prof_before', ownerId: 'own_before', name: 'Before' });
    await db('accounts').insert(
      ['acc_one', 'acc_two'].map((id) => ({
        id,
        ownerId: 'own_before',
        profileId: 'prof_before',
        platform: 'botchat',
        kind: 'bot',
        platformAccountId: id,
        name: id,
        status: 'connected',
      })),
    );
    await db('posts').insert({ id: 'post_before', ownerId: 'own_before', profileId: 'prof_before', status: 'scheduled', scheduledAt: at });
    await db('postTargets').insert(
      ['acc_one', 'acc_two'].map((accountId, position) => ({
        postId: 'post_before',
        accountId,
        position,
        platform: 'botchat',
        status: 'scheduled',
      })),
    );

    await migrate(db);
    const targets = (await db('postTargets').select('accountId', 'scheduledAt').orderBy('accountId')) as Array<{ scheduledAt: Date }>;
    expect(targets.map((target) => target.scheduledAt.toISOString())).to.deep.equal([at.toISOString(), at.toISOString()]);

    await db.migrate.down({ migrationSource: migrationSource(migrations), name: MIGRATION });
    expect(await db.schema.hasColumn('post_targets', 'scheduled_at')).to.equal(false);
  });
});
