import { expect } from 'chai';
import { migrate } from '../../../src/db/database.js';
import { migrationDatabase } from '../../support/migration-db.js';

describe('migration — page accounts list permissions, not the person’s tasks on the page', () => {
  const database = migrationDatabase('202611261640_accounts_page_scopes_granted');

  it("turns an existing page's tasks into the permissions they use, and leaves every other account as it was", async () => {
    await database.migratedUpTo();
    const db = database.db();
    await db('owners').insert({ id: 'own_before', email: 'before@example.com', passwordHash: 'x' });
    await db('profiles').insert({ id: 'prof_before', ownerId: 'own_before', name: 'Before' });
    const account = (id: string, platform: string, kind: string, scopes: string[]) => ({
      id,
      ownerId: 'own_before',
      profileId: 'prof_before',
      platform,
      kind,
      platformAccountId: id,
      name: id,
      status: 'connected',
      scopes,
    });
    await db('accounts').insert([
      account('acc_page', 'social_network', 'page', ['MODERATE', 'MESSAGING']),
      account('acc_video', 'short_video', 'profile', ['user.info.basic', 'video.publish']),
    ]);

    await migrate(db);
    const scopes = Object.fromEntries(
      ((await db('accounts').select('id', 'scopes')) as Array<{ id: string; scopes: string[] }>).map((row) => [row.id, row.scopes]),
    );
    expect(scopes).to.deep.equal({
      acc_page: ['pages_manage_engagement', 'pages_messaging', 'pages_read_engagement', 'pages_read_user_engagement', 'pages_show_list'],
      acc_video: ['user.info.basic', 'video.publish'],
    });
  });
});
