import { expect } from 'chai';
import { loadConfig } from '../../src/config.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

describe('sandbox — what it stands in for, given to the service through its configuration', () => {
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sandbox.close();
  });

  it('points every platform and provider the operator left unset at itself', async () => {
    const served = await sandbox.standIn(loadConfig({}));
    expect(served.platforms.botchat).to.deep.equal({ configured: true, settings: { apiUrl: `${sandbox.url}/botchat` } });
    expect(served.ai.providers.map((provider) => [provider.name, provider.baseUrl, provider.sandbox])).to.deep.equal([
      ['sandbox', `${sandbox.url}/ai/v1`, true],
    ]);
    expect(served.billing).to.include({ apiUrl: sandbox.url, registersEndpoint: true });
    expect(served.billing.secretKey).to.match(/^sk_test_/);
    const trust = (await (await fetch(`${sandbox.url}/wallet-vendor/trust`)).json()) as Record<string, string>;
    expect(served.wallet.vendor).to.deep.equal({
      rootPem: trust.rootCertificatePem,
      wwdrPem: trust.wwdrCertificatePem,
      pushUrl: trust.pushUrl,
      pushCaPem: trust.rootCertificatePem,
    });
  });

  it('keeps what the operator configured', async () => {
    const config = loadConfig({
      BOTCHAT_API_URL: 'https://bots.example',
      AI_PROVIDERS: JSON.stringify([{ name: 'own', baseUrl: 'https://ai.example/v1', models: [{ id: 'm', kind: 'copy' }] }]),
      STRIPE_SECRET_KEY: 'sk_live_own',
      STRIPE_WEBHOOK_SECRET: 'whsec_own',
      WALLET_VENDOR_ROOT_CA_FILE: '/etc/wallet/root.pem',
      WALLET_WWDR_CERT_FILE: '/etc/wallet/wwdr.pem',
    });
    const served = await sandbox.standIn(config);
    expect(served.platforms.botchat).to.deep.equal(config.platforms.botchat);
    expect(served.ai).to.deep.equal(config.ai);
    expect(served.billing).to.deep.equal(config.billing);
    expect(served.wallet).to.deep.equal(config.wallet);
    expect(served.platforms.social_network).to.nested.include({ 'settings.graphHost': `${sandbox.url}/social_network/graph` });
  });
});
