import { expect } from 'chai';
import { Platforms, readPlatformSettings } from '../../src/platforms/registry.js';
import { DEMO_BOT_TOKEN } from '../../src/sandbox/botchat/platform.js';
import { SANDBOX_APP_SECRET } from '../../src/sandbox/chatapp-cloud/demo.js';
import { withSandboxDefaults } from '../../src/sandbox/platforms.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { newOwner } from '../support/owners.js';

const deps = { publicUrl: 'http://127.0.0.1:1', openMedia: () => Promise.reject(new Error('no media in this test')) };

describe('the platform registry', () => {
  it('creates the configured platforms only, and says what would configure each of the others', () => {
    const platforms = new Platforms(readPlatformSettings({ BOTCHAT_API_URL: 'http://127.0.0.1:9' }), deps);
    expect(platforms.all().map((adapter) => adapter.id)).to.deep.equal(['botchat']);
    expect(platforms.get('botchat')?.id).to.equal('botchat');
    expect(platforms.capability('botchat', 'publisher')).to.not.equal(undefined);
    expect(platforms.capability('botchat', 'oauth')).to.equal(undefined);
    expect(platforms.get('calendar')).to.equal(undefined);
    expect(platforms.unavailable.get('calendar')).to.equal('set SEARCH_SUITE_CLIENT_ID and SEARCH_SUITE_CLIENT_SECRET');
    expect([...platforms.unavailable.keys()]).to.have.members([
      'chatapp-cloud',
      'qrchat',
      'search_suite',
      'calendar',
      'short_video',
      'short_video_ads',
      'social_network',
      'social_threads',
    ]);
  });

  it('points every platform left unconfigured at the sandbox, keeping what was set of its own', () => {
    const read = readPlatformSettings({
      BOTCHAT_API_URL: 'https://bots.example',
      CHATAPP_CLOUD_VERIFY_TOKEN: 'own token',
      SOCIAL_NETWORK_API_VERSION: 'v26.0',
    });
    const settings = withSandboxDefaults(read, 'http://127.0.0.1:8081');
    expect(settings.botchat).to.deep.equal(read.botchat);
    expect(settings['chatapp-cloud']).to.deep.equal({
      configured: true,
      settings: { apiUrl: 'http://127.0.0.1:8081/chatapp-cloud/v25.0', appSecret: SANDBOX_APP_SECRET, verifyToken: 'own token' },
    });
    expect(settings.social_network).to.nested.include({
      configured: true,
      'settings.graphHost': 'http://127.0.0.1:8081/social_network/graph',
      'settings.version': 'v26.0',
    });
    const platforms = new Platforms(settings, deps);
    expect(platforms.unavailable.size).to.equal(0);
    expect(platforms.all()).to.have.length(9);
  });
});

describe('platforms left unconfigured while the sandbox is off', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ sandbox: { mode: 'off', port: 0 } });
  });
  after(async () => {
    await app.close();
  });

  it('are not available: connecting an account answers 422 platform_not_configured, saying what the operator would set', async () => {
    expect(app.services.sandboxUrl).to.equal(null);
    const owner = await newOwner(app.api);
    const bot = await app.api.post('/connect/botchat', {
      token: owner.key,
      body: { profileId: owner.profileId, botToken: DEMO_BOT_TOKEN },
    });
    expect(bot.status).to.equal(422);
    expect(bot.body.code).to.equal('platform_not_configured');
    expect(bot.body.detail).to.include('BOTCHAT_API_URL');
    const pages = await app.api.get(`/connect/social_network?profileId=${owner.profileId}`, { token: owner.key });
    expect(pages.status).to.equal(422);
    expect(pages.body.detail).to.include('SOCIAL_NETWORK_APP_ID and SOCIAL_NETWORK_APP_SECRET');
    const paired = await app.api.post('/connect/qrchat', { token: owner.key, body: { profileId: owner.profileId } });
    expect(paired.status).to.equal(422);
    expect(paired.body.code).to.equal('platform_not_configured');
  });
});
