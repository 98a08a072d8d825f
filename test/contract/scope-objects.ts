import { expect } from 'chai';
import type { TestApp } from '../support/app.js';
import type { TestOwner } from '../support/owners.js';
import { restrictedKey } from '../support/owners.js';
import { ChatappCloudPeople, connectNumber } from '../support/sandbox/chatapp-cloud.js';
import { LeadAdsPeople } from '../support/sandbox/lead-ads.js';
import { SocialNetworkPeople, connectAdAccounts, connectPages, pendingConnection } from '../support/sandbox/social-network.js';
import { WalletPeople } from '../support/sandbox/wallet.js';
import { until } from '../support/wait.js';
import { creating, product } from '../modules/commerce/support.js';
import { uploadPhoto, uploadVideo } from '../modules/publishing/support.js';
import { connectNewAdAccount, MarketingPeople } from '../support/sandbox/marketing.js';

/**
 * How to make one object of each kind of id, keyed by the id's prefix, for a place (an owner and one of their
 * profiles): the test of every operation's ids tries each id-bearing member with objects made here, so a new
 * member needs only its prefix known here, and a new kind of id with no maker fails that test, naming it.
 * `under`: the kinds an object of this kind is looked up in when the request names one too (a conversation in its
 * account, an account in the profile named beside it): another profile's is answered 404 there, as not the parent's. `null`: not our id (a platform's own), checked
 * through the object it came with.
 */
export const MAKERS: Record<string, Maker | null> = {
  prof: { make: async (_, place) => place.profileId },
  acc: { under: ['prof'], make: async (world, place) => (await world.page(place)).accountId },
  'acc:chatapp': { make: async (world, place) => world.chatappNumber(place) },
  adacc: {
    make: async (world, place) =>
      world.dance(async () => {
        const person = await new SocialNetworkPeople(() => world.app).newPerson({ pages: 0, adAccounts: 1 });
        const connected = await connectAdAccounts(world.app, place, await pendingConnection(world.app, place), person.adAccountIds);
        expect(connected.status, connected.text).to.equal(201);
        return connected.body.data[0].id as string;
      }),
  },
  crtask: {
    under: ['adacc'],
    // A creative waiting for its video: the ad account's videos process until a person finishes them.
    make: async (world, place) => {
      const adAccountId = await world.object('adacc', place);
      const row = await world.app.services.db('adAccounts').where({ id: adAccountId }).first();
      await new MarketingPeople(() => world.app).videoProcessing(row.platformAdAccountId, null);
      const mediaId = await uploadVideo(world.app, place);
      const body = { adAccountId, name: 'Waiting', objectStorySpec: { pageId: '1', videoData: { mediaId } } };
      return world.created(place, '/ads/adcreatives', body, 'taskId');
    },
  },
  boost: {
    // A paused boost of a post on the page of the ad account's own person.
    make: async (world, place) =>
      world.dance(async () => {
        const ad = await connectNewAdAccount(world.app, place);
        const post = await new SocialNetworkPeople(() => world.app).postInApp(ad.pageId, 'Boost me');
        const body = { adAccountId: ad.adAccountId, platformPostId: post.id, dailyBudget: 1000, durationDays: 7, status: 'PAUSED' };
        return world.created(place, '/ads/boost', { ...body, targeting: { geoLocations: { countries: ['US'] } } });
      }),
  },
  pconn: { under: ['prof'], make: async (world, place) => world.dance(() => pendingConnection(world.app, place)) },
  post: {
    under: ['acc'],
    make: async (world, place) => {
      const accountIds = [await world.object('acc', place)];
      return world.created(place, '/posts', {
        text: 'Later',
        accountIds,
        scheduledAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      });
    },
  },
  lead: {
    under: ['acc'],
    make: async (world, place) => {
      const { accountId, pageId } = await world.page(place);
      const form = await new LeadAdsPeople(() => world.app).newForm(pageId);
      return world.created(place, `/accounts/${accountId}/lead-forms/${form.id}/test-webhook`, {});
    },
  },
  media: { make: async (world, place) => uploadPhoto(world.app, place) },
  upl: {
    // A resumable upload started with tus (a POST with the file's size): the last segment of its Location.
    make: async (world, place) => {
      const metadata = `profileId ${Buffer.from(place.profileId).toString('base64')}`;
      const created = await fetch(`${world.app.url}/upload/tus`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${place.key}`, 'Tus-Resumable': '1.0.0', 'Upload-Length': '100', 'Upload-Metadata': metadata },
      });
      expect(created.status).to.equal(201);
      return created.headers.get('location')!.split('/').pop()!;
    },
  },
  slot: {
    make: async (world, place) =>
      world.created(place, '/queue/slots', { profileId: place.profileId, dayOfWeek: 'monday', time: '09:00', timezone: 'Europe/Berlin' }),
  },
  task: {
    make: async (world, place) => world.created(place, '/ai/generate-copy', { prompt: 'Hello', profileId: place.profileId }, 'taskId'),
  },
  conv: { under: ['acc'], make: async (world, place) => (await world.conversation(place)).conversationId },
  msg: { under: ['acc'], make: async (world, place) => (await world.conversation(place)).messageId },
  auto: {
    make: async (world, place) =>
      world.created(place, '/automations', {
        profileId: place.profileId,
        name: 'Price questions',
        accountIds: [await world.object('acc', place)],
        trigger: { type: 'comment_received', keywords: ['price'], matchType: 'contains' },
        actions: [{ type: 'reply_comment', text: 'Thanks' }],
      }),
  },
  wprog: { make: async (world, place) => (await new WalletPeople(() => world.app).connectedProgram(place)).programId },
  wpass: {
    under: ['wprog'],
    make: async (world, place) =>
      world.created(place, '/wallet/passes', { programId: await world.object('wprog', place), holder: { name: 'Lena' }, fields: {} }),
  },
  hook: {
    // Made with a key of the profile: the hook is bound to it.
    make: async (world, place) =>
      world.created({ ...place, key: await restrictedKey(world.app.api, place, [place.profileId]) }, '/hooks', {
        url: 'https://127.0.0.1:9/hook',
        events: ['message.received'],
      }),
  },
  dlv: {
    under: ['hook'],
    make: async (world, place) => {
      const hook = await world.object('hook', place);
      const tested = await world.app.api.post(`/hooks/${hook}/test`, { token: place.session });
      expect(tested.status, tested.text).to.be.lessThan(300);
      const deliveries = await until(
        async () => (await world.app.api.get(`/hooks/${hook}/deliveries`, { token: place.session })).body.data,
        {
          done: (data: Array<{ id: string }>) => data.length > 0,
          what: `a delivery of hook ${hook}`,
        },
      );
      return deliveries[0]!.id;
    },
  },
  key: {
    make: async (world, place) => {
      const made = await world.app.api.post('/api-keys', {
        token: place.session,
        body: { name: 'k', scope: { profiles: [place.profileId] } },
      });
      expect(made.status, made.text).to.equal(201);
      return made.body.id as string;
    },
  },
  cat: {
    under: ['acc'],
    make: async (world, place) =>
      world.created(place, '/commerce/catalogs', { accountId: (await world.page(place)).accountId, name: 'Shop' }),
  },
  prod: {
    under: ['cat'],
    make: async (world, place) =>
      world.created(place, '/commerce/products', { catalogId: await world.object('cat', place), ...product(`P-${place.profileId}`) }),
  },
  pset: {
    under: ['cat'],
    make: async (world, place) =>
      world.created(place, '/commerce/product-sets', { catalogId: await world.object('cat', place), name: 'All' }),
  },
  pbat: {
    under: ['cat'],
    make: async (world, place) =>
      world.created(place, '/commerce/products/batch', {
        catalogId: await world.object('cat', place),
        requests: [creating(`B-${place.profileId}`)],
      }),
  },
  act: null,
};

interface Maker {
  under?: string[];
  make: (world: World, place: TestOwner) => Promise<string>;
}

/** The objects of the test, made once each (per kind and place), and the few made together. */
export class World {
  private readonly objects = new Map<string, Promise<string>>();
  private readonly pages = new Map<TestOwner, Promise<{ accountId: string; pageId: string }>>();
  private readonly conversations = new Map<TestOwner, Promise<{ conversationId: string; messageId: string }>>();
  private dancing: Promise<unknown> = Promise.resolve();

  constructor(readonly app: TestApp) {}

  /** The object of `kind` at `place`: made at the first ask, by its maker. */
  object(kind: string, place: TestOwner): Promise<string> {
    const key = `${kind} ${place.profileId}`;
    let made = this.objects.get(key);
    if (!made) {
      const maker = MAKERS[kind];
      if (!maker) throw new Error(`no maker for ids of kind ${kind}: add one to MAKERS (test/contract/scope-objects.ts)`);
      made = maker.make(this, place);
      this.objects.set(key, made);
    }
    return made;
  }

  /** The sandbox's consent page knows one signed-in person at a time: connections are made one after the other. */
  dance<T>(connect: () => Promise<T>): Promise<T> {
    const done = this.dancing.then(connect);
    this.dancing = done.catch(() => undefined);
    return done;
  }

  /** A page of its own, connected to the place's profile. */
  page(place: TestOwner): Promise<{ accountId: string; pageId: string }> {
    let page = this.pages.get(place);
    if (!page) {
      page = this.dance(async () => {
        const person = await new SocialNetworkPeople(() => this.app).newPerson({ pages: 1, adAccounts: 0 });
        const connected = await connectPages(this.app, place, await pendingConnection(this.app, place), [person.pageIds[0]!]);
        expect(connected.status, connected.text).to.equal(201);
        return { accountId: connected.body.data[0].id as string, pageId: person.pageIds[0]! };
      });
      this.pages.set(place, page);
    }
    return page;
  }

  /** A person's Messenger conversation with the place's page, and the message that started it. */
  conversation(place: TestOwner): Promise<{ conversationId: string; messageId: string }> {
    let conversation = this.conversations.get(place);
    if (!conversation) {
      conversation = (async () => {
        const { accountId, pageId } = await this.page(place);
        await new SocialNetworkPeople(() => this.app).sendMessage(pageId, 'Do you ship to Austria?');
        const listed = await this.firstConversation(place, accountId);
        const read = await this.app.api.get(`/accounts/${accountId}/conversations/${listed.id}`, { token: place.key });
        return { conversationId: listed.id as string, messageId: read.body.messages.data[0].id as string };
      })();
      this.conversations.set(place, conversation);
    }
    return conversation;
  }

  /** A chat app number of the place's profile that a person wrote to (its 24-hour window is open). */
  async chatappNumber(place: TestOwner): Promise<string> {
    const { accountId, number } = await connectNumber(this.app, place);
    await new ChatappCloudPeople(() => this.app).sendMessage(number.phoneNumberId, 'Table for two?', '+4915112345678');
    await this.firstConversation(place, accountId);
    return accountId;
  }

  /**
   * The account's first conversation, once the message a person sent is in: waited for by itself, not by the whole
   * app going quiet, which other objects made at the same time keep from happening (a creative waiting for its video).
   */
  private async firstConversation(place: TestOwner, accountId: string): Promise<{ id: string }> {
    const listed = await until(
      async () => (await this.app.api.get(`/accounts/${accountId}/conversations`, { token: place.key })).body.data,
      {
        done: (data: Array<{ id: string }>) => data.length > 0,
        what: `a conversation of ${accountId}`,
      },
    );
    return listed[0]!;
  }

  /** POSTs `body` with the place's unrestricted key: the made object's id (`member` of the answer). */
  async created(place: TestOwner, path: string, body: unknown, member = 'id'): Promise<string> {
    const made = await this.app.api.post(path, { token: place.key, body });
    expect(made.status, `${path}: ${made.text}`).to.be.within(200, 202);
    return made.body[member] as string;
  }
}
