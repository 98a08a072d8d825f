import { expect } from 'chai';
import { loadConfig } from '../../../src/config.js';
import { describeApi } from '../../support/harness.js';

/**
 * The operator configured the real Telegram and TikTok (their URLs are never called here) and left PUBLIC_URL on
 * this machine's address, as the test apps run: the sandbox stands in for every other platform.
 */
const operators = loadConfig({
  BOTCHAT_API_URL: 'https://api.botchat.example',
  SHORT_VIDEO_CLIENT_KEY: 'operator-client-key',
  SHORT_VIDEO_CLIENT_SECRET: 'operator-client-secret',
}).platforms;

describeApi(
  'connecting a real platform while PUBLIC_URL is not reachable from the internet',
  { settings: { platforms: operators } },
  (t) => {
    const refusal = (body: { code: string; detail: string }) => {
      expect(body.code).to.equal('public_url_unreachable');
      expect(body.detail).to.include(`PUBLIC_URL (${t.app.services.config.publicUrl}) is not reachable from the internet`);
      expect(body.detail).to.match(/127\.0\.0\.1 is not a public address \(loopback\)/);
    };

    it('connectBotchat — 422 public_url_unreachable naming PUBLIC_URL and why, before the platform is called', async () => {
      const answer = await t.app.api.post('/connect/botchat', {
        token: t.owner.key,
        body: { profileId: t.owner.profileId, botToken: '7123456789:AAHk3v9QxL2mN8pR4sT6uW1yZ3bC5dE7fG9' },
      });
      expect(answer.status).to.equal(422);
      refusal(answer.body);
    });

    it('startConnection — 422 public_url_unreachable for the real platform; a platform the sandbox serves starts', async () => {
      const query = `profileId=${t.owner.profileId}&redirectUrl=${encodeURIComponent('https://app.example/done')}`;
      const real = await t.app.api.get(`/connect/short_video?${query}`, { token: t.owner.key });
      expect(real.status).to.equal(422);
      refusal(real.body);
      const sandboxed = await t.app.api.get(`/connect/social_threads?${query}`, { token: t.owner.key });
      expect(sandboxed.status).to.equal(200);
    });
  },
);
