import { expect } from 'chai';
import pg from 'pg';
import { NotificationListener } from '../../src/lib/listener.js';
import { createLogger } from '../../src/lib/logger.js';
import { adminUrl } from '../fixtures.js';

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

  async function until(condition: () => boolean, what: string): Promise<void> {
    for (let waited = 0; !condition(); waited += 20) {
      if (waited > 10_000) expect.fail(`${what} did not happen; heard ${JSON.stringify(heard)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('hears its channel, reconnects when the server ends its connection, says so once, and hears the channel again', async () => {
    listener = new NotificationListener(adminUrl(), ['listener_test'], (channel) => heard.push(channel), createLogger('silent'), 'listener-test');
    await listener.start();
    expect(heard).to.deep.equal([null]);
    await admin.query("NOTIFY listener_test, 'one'");
    await until(() => heard.length === 2, 'the first notification');

    const { rows } = await admin.query("SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'listener-test'");
    expect(rows).to.deep.equal([{ ended: true }]);
    await until(() => heard.length === 3, 'the reconnection');
    expect(heard[2]).to.equal(null);

    await admin.query("NOTIFY listener_test, 'two'");
    await until(() => heard.length === 4, 'a notification after the reconnection');
    expect(heard).to.deep.equal([null, 'listener_test', null, 'listener_test']);
  });

  it('stops for good: a stopped listener does not reconnect', async () => {
    await listener.stop();
    const count = heard.length;
    await new Promise((resolve) => setTimeout(resolve, 700));
    const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'listener-test'");
    expect(rows[0].n).to.equal(0);
    expect(heard.length).to.equal(count);
  });
});
