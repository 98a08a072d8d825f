import { expect } from 'chai';
import { SocialThreadsAdapter } from '../../../src/platforms/social-threads/adapter.js';
import { DEFAULT_VERSION } from '../../../src/platforms/social-threads/settings.js';
import { socialThreadsSandbox } from '../../../src/sandbox/social-threads/index.js';
import { DEMO_THREADS_USER, SANDBOX_THREADS_APP } from '../../../src/sandbox/social-threads/demo.js';
import { consent } from '../../support/sandbox/oauth.js';
import { sandboxForFile } from './sandbox.js';

const REDIRECT = 'https://app.example/threads/callback';

/**
 * Threads has no client library of Meta's (facebook-nodejs-business-sdk covers neither its hosts nor its token
 * endpoints), so the calls are plain HTTP as Threads documents them, and then through our adapter.
 */
describe('sandbox Threads API — over plain HTTP as Threads documents it, and through our adapter', () => {
  const sandbox = sandboxForFile();
  const graph = (path: string) => `${sandbox.url()}/social_threads/graph/${path}`;
  const settings = () => socialThreadsSandbox.defaults(sandbox.url());

  /** A code for the demo person's consent to the sandbox app. */
  async function code(): Promise<string> {
    const authorize = new URL(settings().authorizeUrl);
    authorize.search = new URLSearchParams({
      client_id: SANDBOX_THREADS_APP.id,
      redirect_uri: REDIRECT,
      scope: 'threads_basic,threads_content_publish',
      response_type: 'code',
      state: 's',
    }).toString();
    return (await consent(authorize, 'approve')).searchParams.get('code')!;
  }

  it('answers the code exchange with user_id as a JSON number with every digit of the id /me answers', async () => {
    const exchange = await fetch(graph('oauth/access_token'), {
      method: 'POST',
      body: new URLSearchParams({
        client_id: SANDBOX_THREADS_APP.id,
        client_secret: SANDBOX_THREADS_APP.secret,
        code: await code(),
        grant_type: 'authorization_code',
        redirect_uri: REDIRECT,
      }),
    });
    const text = await exchange.text();
    expect(text).to.include(`"user_id":${DEMO_THREADS_USER.id}`);
    const token = (JSON.parse(text) as { access_token: string }).access_token;
    const me = (await (await fetch(graph(`${DEFAULT_VERSION}/me?fields=id,username&access_token=${token}`))).json()) as { id: string };
    expect(me.id).to.equal(DEMO_THREADS_USER.id);
  });

  it('our adapter keeps the exact user id from the code exchange, not one rounded to a double', async () => {
    const adapter = new SocialThreadsAdapter(settings());
    const grant = await adapter.oauth.exchange(await code(), REDIRECT, null);
    expect(grant.extra.userId).to.equal(DEMO_THREADS_USER.id);
    const [account] = await adapter.oauth.accounts(grant, []);
    expect(account!.identity.platformAccountId).to.equal(grant.extra.userId);
  });

  it('reads a post with its shortcode, username and a permalink made of them', async () => {
    const adapter = new SocialThreadsAdapter(settings());
    const { accessToken } = await adapter.oauth.exchange(await code(), REDIRECT, null);
    const posted = await fetch(`${sandbox.url()}/_sandbox/social_threads/threads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: DEMO_THREADS_USER.id, text: 'Fresh roast today' }),
    });
    const { id } = (await posted.json()) as { id: string };
    const fields = 'id,text,shortcode,username,permalink,owner';
    const read = (await (await fetch(graph(`${DEFAULT_VERSION}/${id}?fields=${fields}&access_token=${accessToken}`))).json()) as Record<
      string,
      unknown
    >;
    expect(read).to.include({ id, text: 'Fresh roast today', username: DEMO_THREADS_USER.username });
    expect(read.shortcode).to.be.a('string');
    expect(read.permalink).to.equal(`https://www.threads.net/@${DEMO_THREADS_USER.username}/post/${String(read.shortcode)}`);
    expect(read.owner).to.deep.equal({ id: DEMO_THREADS_USER.id });
  });

  it("makes an image container from this machine's address, and not in strict mode, as Threads could not reach it", async () => {
    const adapter = new SocialThreadsAdapter(settings());
    const { accessToken } = await adapter.oauth.exchange(await code(), REDIRECT, null);
    const container = () =>
      fetch(graph(`${DEFAULT_VERSION}/${DEMO_THREADS_USER.id}/threads`), {
        method: 'POST',
        body: new URLSearchParams({ media_type: 'IMAGE', image_url: sandbox.photoUrl(), text: 'Cups', access_token: accessToken }),
      });
    expect((await container()).status).to.equal(200);
    await sandbox.strictly('social_threads', async () => {
      const refused = await container();
      expect(refused.status).to.equal(400);
      expect(((await refused.json()) as { error: { error_subcode: number } }).error.error_subcode).to.equal(2207052);
    });
  });
});
