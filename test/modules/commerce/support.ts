import { expect } from 'chai';
import { commerceSettings } from '../../../src/modules/commerce/settings.js';
import type { TestApp } from '../../support/app.js';
import type { TestOwner } from '../../support/owners.js';
import { connectPages, pendingConnection, SocialNetworkPeople } from '../../support/sandbox/social-network.js';
import { until } from '../../support/wait.js';

/** Commerce settings of a test app: batches looked at ten times a second, short leases, a short wait in the answer. */
export function testCommerceSettings(env: Record<string, string> = {}) {
  return commerceSettings({
    COMMERCE_POLL_SCHEDULE_MS: '100,200',
    COMMERCE_WORKER_LEASE_SECONDS: '2',
    COMMERCE_ANSWER_WAIT_MS: '0',
    ...env,
  });
}

export interface Shop {
  accountId: string;
  pageId: string;
  catalogId: string;
  platformCatalogId: string;
}

/** A new person's page connected to the owner's profile (`declineScopes`: what the person unticks at consent). */
export async function connectPage(
  app: TestApp,
  owner: TestOwner,
  declineScopes: string[] = [],
): Promise<{ accountId: string; pageId: string }> {
  const person = await new SocialNetworkPeople(() => app).newPerson({ pages: 1, adAccounts: 0, declineScopes });
  const connected = await connectPages(app, owner, await pendingConnection(app, owner), [person.pageIds[0]!]);
  expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
  return { accountId: connected.body.data[0].id, pageId: person.pageIds[0]! };
}

/** A connected page with a new catalog. */
export async function newCatalog(app: TestApp, owner: TestOwner, name = 'Acme Coffee'): Promise<Shop> {
  const page = await connectPage(app, owner);
  const created = await app.api.post('/commerce/catalogs', { token: owner.key, body: { accountId: page.accountId, name } });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  return { ...page, catalogId: created.body.id, platformCatalogId: created.body.platformCatalogId };
}

/** A product's members for a CREATE (`retailerId` and anything changed given). */
export function product(retailerId: string, changes: Record<string, unknown> = {}) {
  return {
    retailerId,
    title: `Coffee ${retailerId}`,
    description: 'Medium roast, whole beans.',
    availability: 'in stock',
    condition: 'new',
    price: 1290,
    currency: 'EUR',
    link: `https://acme-coffee.example/p/${retailerId}`,
    imageLink: `https://cdn.acme-coffee.example/p/${retailerId}.jpg`,
    brand: 'Acme Coffee',
    ...changes,
  };
}

/** A CREATE request of a batch. */
export function creating(retailerId: string, changes: Record<string, unknown> = {}) {
  const { retailerId: _id, ...data } = product(retailerId, changes);
  return { method: 'CREATE', retailerId, data };
}

export function sendBatch(app: TestApp, owner: TestOwner, catalogId: string, requests: unknown[], headers: Record<string, string> = {}) {
  return app.api.post('/commerce/products/batch', { token: owner.key, body: { catalogId, requests }, headers });
}

/** The batch once every item is final. */
export async function finishedBatch(app: TestApp, owner: TestOwner, batchId: string, timeoutMs = 20_000): Promise<any> {
  const read = await until(() => app.api.get(`/commerce/products/batch/${batchId}`, { token: owner.key }), {
    done: (answer) => answer.body.status === 'finished',
    what: `batch ${batchId} to finish`,
    timeoutMs,
  });
  return read.body;
}
