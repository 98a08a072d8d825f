import { expect } from 'chai';
import pg from 'pg';
import { NotificationListener } from '../../src/lib/listener.js';
import { createLogger } from '../../src/lib/logger.js';
import { adminUrl } from '../fixtures.js';
import { until } from '../support/wait.js';

describe('NotificationListener — one LISTEN connection for its subscribers, that comes back', () => {
  const heard: Array<string | null> = [];
  let listener: NotificationListener;
  let admin: pg.Client;

  before(async () => {
    admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
  });
  after(async () => {
    await listener?.stop();
    await admin.end();
  });

  const heardAll = (count: number, what: string) =>
    until(() => heard.length, { done: (n) => n >= count, what: `${what}; heard ${JSON.stringify(heard)}` });

  const connections = async (like: string) =>
    (await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE $1', [like])).rows[0].n as number;

  it('hears its channel, reconnects when the server ends its connection, says so once, and hears the channel again', async () => {
    listener = new NotificationListener(adminUrl(), createLogger('silent'), 'listener-test');
    await listener.listen(['listener_test'], (channel) => heard.push(channel));
    await listener.start();
    expect(heard).to.deep.equal([null]);
    await admin.query("NOTIFY listener_test, 'one'");
    await heardAll(2, 'the first notification');

    // Named as listening once it listens: what a principal change looks for (src/modules/auth/principal-cache.ts).
    const { rows } = await admin.query(
      "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'listener-test listening'",
    );
    expect(rows).to.deep.equal([{ ended: true }]);
    await heardAll(3, 'the reconnection');
    expect(heard[2]).to.equal(null);

    await admin.query("NOTIFY listener_test, 'two'");
    await heardAll(4, 'a notification after the reconnection');
    expect(heard).to.deep.equal([null, 'listener_test', null, 'listener_test']);
  });

  it('serves subscribers that come and go on its one connection, each hearing only its own channels', async () => {
    const other: Array<[string | null, string | undefined]> = [];
    const unlisten = await listener.listen(['listener_other', 'listener_test'], (channel, payload) => other.push([channel, payload]));
    // Subscribed once connected: listening already when it resolves, and told so.
    expect(other).to.deep.equal([[null, undefined]]);
    await admin.query("NOTIFY listener_other, 'three'");
    await until(() => other.length, { done: (n) => n >= 2, what: 'the second subscriber to hear its channel' });
    expect(other[1]).to.deep.equal(['listener_other', 'three']);
    expect(await connections('listener-test%')).to.equal(1);

    await unlisten();
    const count = heard.length;
    await admin.query("NOTIFY listener_other, 'four'");
    await admin.query("NOTIFY listener_test, 'five'");
    await heardAll(count + 1, 'the first subscriber to hear the channel still heard');
    expect(heard.slice(count)).to.deep.equal(['listener_test']);
    expect(other, 'nothing more once it unlistened').to.have.length(2);
  });

  it('stops for good: a stopped listener does not reconnect', async () => {
    // A listener left running, whose connection ends at the same time: by the time it is back, a stopped one would be too.
    const reconnections: Array<string | null> = [];
    const control = new NotificationListener(adminUrl(), createLogger('silent'), 'listener-control');
    await control.listen(['listener_test'], (channel) => reconnections.push(channel));
    await control.start();
    try {
      await listener.stop();
      const count = heard.length;
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'listener-control%'");
      await until(() => reconnections.length, { done: (n) => n >= 2, what: 'the control listener to reconnect' });
      expect(await connections('listener-test%')).to.equal(0);
      expect(heard.length).to.equal(count);
    } finally {
      await control.stop();
    }
  });
});
