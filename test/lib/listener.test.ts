import { expect } from 'chai';
import pg from 'pg';
import { NotificationListener } from '../../src/lib/listener.js';
import { createLogger } from '../../src/lib/logger.js';
import { adminUrl } from '../fixtures.js';
import { until } from '../support/wait.js';

describe('NotificationListener — a LISTEN connection that comes back', () => {
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

  it('hears its channel, reconnects when the server ends its connection, says so once, and hears the channel again', async () => {
    listener = new NotificationListener(
      adminUrl(),
      ['listener_test'],
      (channel) => heard.push(channel),
      createLogger('silent'),
      'listener-test',
    );
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

  it('stops for good: a stopped listener does not reconnect', async () => {
    // A listener left running, whose connection ends at the same time: by the time it is back, a stopped one would be too.
    const reconnections: Array<string | null> = [];
    const control = new NotificationListener(
      adminUrl(),
      ['listener_test'],
      (channel) => reconnections.push(channel),
      createLogger('silent'),
      'listener-control',
    );
    await control.start();
    try {
      await listener.stop();
      const count = heard.length;
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'listener-control%'");
      await until(() => reconnections.length, { done: (n) => n >= 2, what: 'the control listener to reconnect' });
      const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'listener-test%'");
      expect(rows[0].n).to.equal(0);
      expect(heard.length).to.equal(count);
    } finally {
      await control.stop();
    }
  });
});
