import { expect } from 'chai';
import { migrate } from '../../../src/db/database.js';
import { loadMigrations, migrationSource } from '../../../src/db/migration-source.js';
import { migrationDatabase } from '../../support/migration-db.js';

const MIGRATION = '202611241517_publishing_account_post_listing';

describe('migration — targets carry their post’s scheduledAt for the list by account', () => {
  const database = migrationDatabase(MIGRATION);

  it('fills in the time of every target made before it, and its down migration takes the column away again', async () => {
    await database.migratedUpTo();
    const db = database.db();
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

    await db.migrate.down({ migrationSource: migrationSource(await loadMigrations()), name: MIGRATION });
    expect(await db.schema.hasColumn('post_targets', 'scheduled_at')).to.equal(false);
  });
});
