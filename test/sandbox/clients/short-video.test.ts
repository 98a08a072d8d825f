import { expect } from 'chai';
import { SANDBOX_APP } from '../../../src/sandbox/short-video/demo.js';
import { consent } from '../../support/sandbox/oauth.js';
import { sandboxForFile } from './sandbox.js';

const REDIRECT = 'https://app.example/short-video/callback';

/**
 * TikTok's Content Posting API has no Node client of TikTok's (the Business SDK covers the Marketing API only), so
 * the photo init is plain HTTP as TikTok documents it: PULL_FROM_URL takes photos only from a domain verified for
 * the app, and refuses the rest with HTTP 403 `url_ownership_unverified`.
 */
describe('sandbox TikTok Content Posting API — photos pulled from URLs the app owns', () => {
  const sandbox = sandboxForFile();
  let token = '';

  before('the demo creator authorizes the sandbox app', async () => {
    const authorize = new URL(`${sandbox.url()}/short_video/v2/auth/authorize/`);
    authorize.search = new URLSearchParams({
      client_key: SANDBOX_APP.clientKey,
      response_type: 'code',
      scope: 'user.info.basic,video.publish',
      redirect_uri: REDIRECT,
      state: 's',
    }).toString();
    const code = (await consent(authorize, 'approve')).searchParams.get('code')!;
    const issued = await fetch(`${sandbox.url()}/short_video/v2/oauth/token/`, {
      method: 'POST',
      body: new URLSearchParams({
        ...{ client_key: SANDBOX_APP.clientKey, client_secret: SANDBOX_APP.clientSecret },
        code,
        grant_type: 'authorization_code',
        redirect_uri: REDIRECT,
      }),
    });
    token = ((await issued.json()) as { access_token: string }).access_token;
  });

  const control = (path: string, body: Record<string, unknown>) =>
    fetch(`${sandbox.url()}/_sandbox/short_video/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** A photo init pulling from `urls`: the HTTP status and the error's code. */
  async function init(urls: string[]): Promise<{ status: number; code: string }> {
    const answer = await fetch(`${sandbox.url()}/short_video/v2/post/publish/content/init/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        media_type: 'PHOTO',
        post_mode: 'DIRECT_POST',
        post_info: { title: 'Cups', privacy_level: 'SELF_ONLY' },
        source_info: { source: 'PULL_FROM_URL', photo_images: urls, photo_cover_index: 0 },
      }),
    });
    const body = (await answer.json()) as { error: { code: string } };
    await control('minute-passed', { openId: '-000SANDBOXdemoCreatorOpenId0001' });
    return { status: answer.status, code: body.error.code };
  }

  it('refuses a photo on a domain not verified for the app with 403 url_ownership_unverified, and takes it once verified', async () => {
    const url = 'https://media.roastery.example/photos/cup.jpg';
    expect(await init([sandbox.photoUrl(), url])).to.deep.equal({ status: 403, code: 'url_ownership_unverified' });
    expect((await control('verified-domains', { domain: 'https://roastery.example' })).status).to.equal(400);
    expect((await control('verified-domains', { domain: 'roastery.example' })).status).to.equal(200);
    // Verifying a domain verifies what is below it.
    expect(await init([url])).to.deep.equal({ status: 200, code: 'ok' });
    expect(await init(['https://roastery.example.net/cup.jpg'])).to.deep.equal({ status: 403, code: 'url_ownership_unverified' });
  });

  it("takes this machine's address as it is, and refuses it in strict mode as the platform could not reach it", async () => {
    expect(await init([sandbox.photoUrl()])).to.deep.equal({ status: 200, code: 'ok' });
    await sandbox.strictly('short_video', async () => {
      expect(await init([sandbox.photoUrl()])).to.deep.equal({ status: 403, code: 'url_ownership_unverified' });
    });
  });
});
