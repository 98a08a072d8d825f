import { expect } from 'chai';
import { Comment, FacebookAdsApi, LeadgenForm, Page, PagePost, User } from 'facebook-nodejs-business-sdk';
import sharp from 'sharp';
import { classifyMetaError } from '../../../src/platforms/meta/graph.js';
import { DEMO_PAGES, SANDBOX_APP } from '../../../src/sandbox/social-network/demo.js';
import { consent } from '../../support/sandbox/oauth.js';
import { sandboxForFile } from './sandbox.js';

const REDIRECT = 'https://app.example/social/callback';
const PAGE = DEMO_PAGES[0]!;
const SCOPES =
  'pages_show_list,pages_read_engagement,pages_manage_posts,pages_manage_engagement,pages_manage_metadata,read_insights,leads_retrieval,pages_manage_ads';

/** What the SDK throws for an error answer (FacebookRequestError): the HTTP status and the Graph's `error`. */
interface SdkError {
  status: number;
  response: { code?: number; error_subcode?: number; message?: string };
}
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => expect.fail('the call succeeded'),
    (error: SdkError) => error,
  );

/**
 * The Graph calls our social_network adapter makes for pages (page posts, photos, comments, insights) and for lead
 * ads (leadgen forms and their leads), through Meta's Business SDK (facebook-nodejs-business-sdk 24.0.1), which
 * fetches from `FacebookAdsApi.GRAPH`: a static getter, redefined here to point at the sandbox. The SDK cannot
 * upload a file (`Http.requestPromise` drops the body when files are given, and the Page's `createPhoto` takes
 * none), so the multipart `source` upload is plain HTTP as the Graph documents it.
 */
describe('sandbox Graph API (pages, lead ads) — through facebook-nodejs-business-sdk', () => {
  const sandbox = sandboxForFile();
  const graph = () => `${sandbox.url()}/social_network/graph`;
  let pageToken = '';

  before('point the SDK at the sandbox, and sign the demo person in for a page token', async () => {
    Object.defineProperty(FacebookAdsApi, 'GRAPH', { get: () => graph(), configurable: true });
    const authorize = new URL(`${sandbox.url()}/social_network/www/v24.0/dialog/oauth`);
    authorize.search = new URLSearchParams({ client_id: SANDBOX_APP.id, redirect_uri: REDIRECT, scope: SCOPES, state: 's' }).toString();
    const code = (await consent(authorize, 'approve')).searchParams.get('code')!;
    const exchange = new URL(`${graph()}/v24.0/oauth/access_token`);
    exchange.search = new URLSearchParams({
      client_id: SANDBOX_APP.id,
      client_secret: SANDBOX_APP.secret,
      code,
      redirect_uri: REDIRECT,
    }).toString();
    const userToken = ((await (await fetch(exchange)).json()) as { access_token: string }).access_token;
    FacebookAdsApi.init(userToken, 'en_US', false);
    const pages = await new User('me').getAccounts(['id', 'name', 'access_token', 'tasks']);
    const page = pages.find((listed) => listed.id === PAGE.id)!;
    expect(page._data).to.include({ name: PAGE.name });
    pageToken = String(page._data.access_token);
    FacebookAdsApi.init(pageToken, 'en_US', false);
  });

  it('reads the page with the fields asked for', async () => {
    const page = await new Page(PAGE.id).get(['name', 'username', 'about', 'category', 'followers_count', 'link']);
    expect(page._data).to.include({ id: PAGE.id, name: PAGE.name, username: PAGE.username, followers_count: PAGE.followers });
    expect(page._data).to.not.have.property('fan_count');
  });

  it('posts to the feed, publishes a photo from a URL and lists the posts page by page through paging.next', async () => {
    const page = new Page(PAGE.id);
    const post = await page.createFeed([], { message: 'Fresh roast today' });
    const photo = await page.createPhoto([], { url: sandbox.photoUrl(), caption: 'The roaster' });
    expect(photo._data.post_id).to.be.a('string');
    const first = await page.getPublishedPosts(['message', 'created_time'], { limit: 1 });
    expect(first.map((listed) => listed._data.message)).to.deep.equal(['The roaster']);
    expect(first.hasNext()).to.equal(true);
    const second = await first.next();
    expect(second.map((listed) => [listed.id, listed._data.message])).to.deep.equal([[post.id, 'Fresh roast today']]);
  });

  it('takes a photo uploaded as the multipart member source (plain HTTP: the SDK cannot upload)', async () => {
    const form = new FormData();
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#208040' } })
      .png()
      .toBuffer();
    form.set('source', new Blob([png], { type: 'image/png' }), 'roaster.png');
    form.set('caption', 'Uploaded');
    form.set('access_token', pageToken);
    const answer = await fetch(`${graph()}/v24.0/${PAGE.id}/photos`, { method: 'POST', body: form });
    const body = (await answer.json()) as { id?: string; post_id?: string };
    expect(answer.status, JSON.stringify(body)).to.equal(200);
    expect(body.post_id).to.be.a('string');
    const post = await new PagePost(body.post_id).get(['message', 'full_picture']);
    expect(post._data.message).to.equal('Uploaded');

    const text = new FormData();
    text.set('source', new Blob(['not an image'], { type: 'text/plain' }), 'notes.txt');
    text.set('access_token', pageToken);
    const refused = await fetch(`${graph()}/v24.0/${PAGE.id}/photos`, { method: 'POST', body: text });
    expect(refused.status).to.equal(400);
    expect(((await refused.json()) as { error: { code: number } }).error.code).to.equal(324);
  });

  it("fetches media from this machine's address, and not in strict mode, as Meta could not reach it", async () => {
    const page = new Page(PAGE.id);
    expect((await page.createPhoto([], { url: sandbox.photoUrl(), published: false }))._data.id).to.be.a('string');
    await sandbox.strictly('social_network', async () => {
      const error = await refusal(page.createPhoto([], { url: sandbox.photoUrl(), published: false }));
      expect([error.status, error.response.code]).to.deep.equal([400, 324]);
      const link = await refusal(page.createFeed([], { message: 'A link', link: sandbox.photoUrl() }));
      expect(link.response.error_subcode).to.equal(1609005);
    });
  });

  it("reads a person's comment, hides it, answers it and deletes the answer", async () => {
    const post = await new Page(PAGE.id).createFeed([], { message: 'Which roast next?' });
    const commented = await fetch(`${sandbox.url()}/_sandbox/social_network/comments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ postId: post.id, text: 'The Ethiopian one' }),
    });
    const { comment } = (await commented.json()) as { comment: { id: string } };
    const listed = await new PagePost(post.id).getComments(['message', 'from', 'created_time']);
    expect(listed.map((listedComment) => [listedComment.id, listedComment._data.message])).to.deep.equal([
      [comment.id, 'The Ethiopian one'],
    ]);
    expect(await new Comment(comment.id).update([], { is_hidden: true })).to.deep.equal({ success: true });
    expect((await new Comment(comment.id).get(['message', 'is_hidden']))._data).to.include({ is_hidden: true });
    const answer = await new PagePost(post.id).createComment([], { message: 'Coming Friday' });
    expect(await new Comment(answer.id).delete([])).to.deep.equal({ success: true });
  });

  it("reads the page's and a post's insights", async () => {
    const until = new Date().toISOString().slice(0, 10);
    const since = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    const insights = await new Page(PAGE.id).getInsights([], { metric: 'page_follows,page_media_view', period: 'day', since, until });
    expect(insights.map((insight) => insight._data.name)).to.have.members(['page_follows', 'page_media_view']);
    expect(insights[0]!._data.values).to.be.an('array').that.is.not.empty;
    const post = await new Page(PAGE.id).createFeed([], { message: 'Counted' });
    const postInsights = await new PagePost(post.id).getInsights([], { metric: 'post_clicks' });
    expect(postInsights.map((insight) => insight._data.name)).to.deep.equal(['post_clicks']);
  });

  it("lists the page's leadgen forms and a form's leads", async () => {
    const made = await fetch(`${sandbox.url()}/_sandbox/social_network/lead-forms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pageId: PAGE.id, name: 'Tasting sign-up', questions: [{ type: 'EMAIL', key: 'email' }] }),
    });
    const form = (await made.json()) as { id: string };
    await fetch(`${sandbox.url()}/_sandbox/social_network/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ formId: form.id, fields: { email: ['lena@example.com'] }, daysAgo: 1 }),
    });
    const forms = await new Page(PAGE.id).getLeadGenForms(['name', 'status', 'questions']);
    expect(forms.map((listed) => [listed.id, listed._data.name])).to.deep.include([form.id, 'Tasting sign-up']);
    const leads = await new LeadgenForm(form.id).getLeads(['created_time', 'field_data']);
    expect(leads.map((lead) => lead._data.field_data)).to.deep.equal([[{ name: 'email', values: ['lena@example.com'] }]]);
  });

  it("subscribes the app to the page's webhooks and unsubscribes it; unsubscribing again answers the same", async () => {
    const page = new Page(PAGE.id);
    await page.createSubscribedApp([], { subscribed_fields: 'messages,feed' });
    const subscribed = await page.getSubscribedApps(['id', 'subscribed_fields']);
    expect(subscribed.map((app) => [app.id, app._data.subscribed_fields])).to.deep.equal([[SANDBOX_APP.id, ['messages', 'feed']]]);
    expect(await page.deleteSubscribedApps()).to.deep.equal({ success: true });
    expect(await page.getSubscribedApps(['id'])).to.have.length(0);
    expect(await page.deleteSubscribedApps()).to.deep.equal({ success: true });
  });

  it('answers a token that does not work with HTTP 401 and code 190, which our classifier reads as expired', async () => {
    FacebookAdsApi.init('not-a-token', 'en_US', false);
    try {
      const error = await refusal(new Page(PAGE.id).get(['name']));
      expect(error.status).to.equal(401);
      expect(error.response.code).to.equal(190);
      expect(classifyMetaError(error.status, { error: error.response }).kind).to.equal('auth_expired');
    } finally {
      FacebookAdsApi.init(pageToken, 'en_US', false);
    }
  });
});
