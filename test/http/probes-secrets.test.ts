import { expect } from 'chai';
import type { TestApp } from '../support/app.js';
import { describeApi } from '../support/harness.js';
import type { TestOwner } from '../support/owners.js';
import { BotchatPeople, connectBot } from '../support/sandbox/botchat.js';
import { until } from '../support/wait.js';

/** Every text column of every row of a table, as one string to search for a secret in. */
async function tableText(app: TestApp, table: string): Promise<string> {
  const rows = (await app.services.db(table).select('*')) as Array<Record<string, unknown>>;
  return JSON.stringify(rows.map((row) => Object.values(row).map((value) => (Buffer.isBuffer(value) ? value.toString('utf8') : value))));
}

describeApi('secrets at rest: what the tables hold', (t) => {
  let app: TestApp;
  let owner: TestOwner;
  beforeEach(async () => {
    app = t.app;
    owner = t.owner;
  });

  it('a stored Idempotency-Key answer holds no API key, yet its replay shows it', async () => {
    const request = { token: owner.session, body: { name: 'deploy' }, headers: { 'Idempotency-Key': 'new-key-1' } };
    const created = await app.api.post('/api-keys', request);
    expect(created.status).to.equal(201);
    expect(await tableText(app, 'idempotency_keys')).to.not.include(created.body.key);
    const replayed = await app.api.post('/api-keys', request);
    expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
    expect(replayed.body.key).to.equal(created.body.key);
  });

  it('a stored Idempotency-Key answer holds no webhook secret, yet its replay shows it', async () => {
    const request = {
      token: owner.key,
      body: { url: 'https://93.184.216.34/in', events: ['post.published'] },
      headers: { 'Idempotency-Key': 'new-hook-1' },
    };
    const created = await app.api.post('/hooks', request);
    expect(created.status).to.equal(201);
    expect(await tableText(app, 'idempotency_keys')).to.not.include(created.body.secret);
    const replayed = await app.api.post('/hooks', request);
    expect(replayed.body.secret).to.equal(created.body.secret);
  });

  it("an incoming platform webhook is stored without the bot's secret token", async () => {
    const { accountId, token } = await connectBot(app, owner);
    const sent = await new BotchatPeople(() => app).sendMessage(token, 'hello', { id: 4242, firstName: 'Ana' });
    expect(sent.webhookStatus).to.equal(200);
    await until(async () => (await app.services.db('platformWebhooks').where({ sourceAccountId: accountId })).length > 0);
    const row = (await app.services.db('accounts').where({ id: accountId }).first()) as { credentialsCiphertext: string };
    const webhookSecret = (JSON.parse(app.services.secrets.open(row.credentialsCiphertext)) as { extra: { webhookSecret: string } }).extra
      .webhookSecret;
    expect(webhookSecret).to.be.a('string').that.is.not.empty;
    const stored = await tableText(app, 'platform_webhooks');
    expect(stored).to.not.include(webhookSecret);
    expect(stored.toLowerCase()).to.not.include('secret-token');
  });
});
