import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { storedAccount } from '../../support/accounts.js';
import { newOwner } from '../../support/owners.js';
import { creating, finishedBatch, newCatalog, sendBatch, testCommerceSettings } from './support.js';

describeApi(
  'product sets — GET|POST /commerce/product-sets, GET|PATCH|DELETE /commerce/product-sets/{productSetId}',
  { settings: { ...testCommerceSettings() } },
  (t) => {
    const { commerce } = t.sandbox;

    it('creates a set from our filter, mapped to the platform’s filter language, with the platform’s count of matching products', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const sent = await sendBatch(t.app, t.owner, shop.catalogId, [
        creating('S-1', { productType: 'Coffee > Seasonal', price: 1290 }),
        creating('S-2', { productType: 'Coffee > SEASONAL', price: 2490 }),
        creating('S-3', { productType: 'Coffee > Seasonal', availability: 'out of stock' }),
        creating('S-4', { productType: 'Tea' }),
      ]);
      await finishedBatch(t.app, t.owner, sent.body.id);
      const filter = {
        combinator: 'and',
        conditions: [
          { field: 'productType', operator: 'contains', value: 'seasonal' },
          { field: 'availability', operator: 'eq', value: 'in stock' },
          { field: 'price', operator: 'lt', value: 2000 },
        ],
      };
      const created = await t.app.api.post('/commerce/product-sets', {
        token: t.owner.key,
        body: { catalogId: shop.catalogId, name: 'Cheap seasonal', filter },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.deep.include({ name: 'Cheap seasonal', filter, productCount: 1 });
      const onPlatform = await commerce.onPlatform(shop.platformCatalogId);
      expect(onPlatform.sets[0]!.filter).to.deep.equal({
        and: [{ product_type: { i_contains: 'seasonal' } }, { availability: { eq: 'in stock' } }, { price: { lt: 2000 } }],
      });

      const every = await t.app.api.post('/commerce/product-sets', {
        token: t.owner.key,
        body: { catalogId: shop.catalogId, name: 'Everything' },
      });
      expect(every.body).to.include({ filter: null, productCount: 4 });
      const listed = await t.app.api.get(`/commerce/product-sets?catalogId=${shop.catalogId}`, { token: t.owner.key });
      expect(listed.body.data.map((set: any) => [set.name, set.productCount])).to.deep.equal([
        ['Everything', 4],
        ['Cheap seasonal', 1],
      ]);
      expect(listed.body.data[1].filter).to.deep.equal(filter);
    });

    it('refuses a condition without what its operator compares with (400), sending nothing', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const refused = await t.app.api.post('/commerce/product-sets', {
        token: t.owner.key,
        body: {
          catalogId: shop.catalogId,
          name: 'Odd',
          filter: { combinator: 'or', conditions: [{ field: 'inventory', operator: 'is_any' }] },
        },
      });
      expect(refused.status).to.equal(400);
      expect(refused.body.errors[0].path).to.equal('body/filter/conditions/0');
      expect((await commerce.onPlatform(shop.platformCatalogId)).sets).to.have.length(0);
    });

    it('reads one set with the platform’s count as it is now, changes its filter (re-mapped, counted again), and deletes it', async () => {
      const shop = await newCatalog(t.app, t.owner);
      await finishedBatch(
        t.app,
        t.owner,
        (
          await sendBatch(t.app, t.owner, shop.catalogId, [
            creating('C-1', { brand: 'Acme' }),
            creating('C-2', { brand: 'Acme', availability: 'out of stock' }),
            creating('C-3', { brand: 'Other' }),
          ])
        ).body.id,
      );
      const brand = { combinator: 'and', conditions: [{ field: 'brand', operator: 'eq', value: 'Acme' }] };
      const created = await t.app.api.post('/commerce/product-sets', {
        token: t.owner.key,
        body: { catalogId: shop.catalogId, name: 'Acme', filter: brand },
      });
      expect(created.body.productCount).to.equal(2);
      await finishedBatch(t.app, t.owner, (await sendBatch(t.app, t.owner, shop.catalogId, [creating('C-4', { brand: 'Acme' })])).body.id);
      const read = await t.app.api.get(`/commerce/product-sets/${created.body.id}`, { token: t.owner.key });
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(read.body).to.deep.include({ id: created.body.id, name: 'Acme', filter: brand, productCount: 3 });

      const inStock = {
        combinator: 'and',
        conditions: [
          { field: 'brand', operator: 'is_any', values: ['Acme', 'Other'] },
          { field: 'availability', operator: 'neq', value: 'out of stock' },
        ],
      };
      const changed = await t.app.api.patch(`/commerce/product-sets/${created.body.id}`, {
        token: t.owner.key,
        body: { name: 'In stock', filter: inStock },
      });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      expect(changed.body).to.deep.include({ name: 'In stock', filter: inStock, productCount: 3 });
      const onPlatform = (await commerce.onPlatform(shop.platformCatalogId)).sets.find(
        (set) => set.id === created.body.platformProductSetId,
      )!;
      expect(onPlatform).to.deep.include({
        name: 'In stock',
        filter: { and: [{ brand: { is_any: ['Acme', 'Other'] } }, { availability: { neq: 'out of stock' } }] },
      });
      const everything = await t.app.api.patch(`/commerce/product-sets/${created.body.id}`, { token: t.owner.key, body: { filter: null } });
      expect(everything.body).to.include({ name: 'In stock', filter: null, productCount: 4 });

      const deleted = await t.app.api.delete(`/commerce/product-sets/${created.body.id}`, { token: t.owner.key });
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(204);
      expect((await commerce.onPlatform(shop.platformCatalogId)).sets).to.have.length(0);
      expect((await t.app.api.get(`/commerce/product-sets/${created.body.id}`, { token: t.owner.key })).status).to.equal(404);
      expect((await commerce.onPlatform(shop.platformCatalogId)).products, 'its products stay').to.have.length(4);
    });

    it('keeps the filter it knows when the set was changed on the platform to a rule ours cannot say, on the list as on the set', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const brand = { combinator: 'and', conditions: [{ field: 'brand', operator: 'eq', value: 'Acme' }] };
      const created = await t.app.api.post('/commerce/product-sets', {
        token: t.owner.key,
        body: { catalogId: shop.catalogId, name: 'Acme', filter: brand },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      // Changed in the platform's own commerce manager: a nested rule our syntax has no words for.
      const read = t.app.services.config.platforms.social_network;
      if (!read.configured) throw new Error(read.needs);
      const { credentials } = await storedAccount(t.app, shop.accountId);
      const changed = await fetch(`${read.settings.graphHost}/${read.settings.version}/${created.body.platformProductSetId}`, {
        method: 'POST',
        body: new URLSearchParams({
          access_token: credentials.accessToken,
          filter: JSON.stringify({ and: [{ or: [{ brand: { eq: 'Acme' } }, { brand: { eq: 'Other' } }] }] }),
        }),
      });
      expect(changed.status, await changed.text()).to.equal(200);

      const listed = await t.app.api.get(`/commerce/product-sets?catalogId=${shop.catalogId}`, { token: t.owner.key });
      expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
      expect(listed.body.data[0]).to.deep.include({ id: created.body.id, filter: brand });
      const one = await t.app.api.get(`/commerce/product-sets/${created.body.id}`, { token: t.owner.key });
      expect(one.body).to.deep.include({ filter: brand });
    });

    it('answers 404 for another owner’s set, and refuses a condition without its operand (400) before calling the platform', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const created = await t.app.api.post('/commerce/product-sets', {
        token: t.owner.key,
        body: { catalogId: shop.catalogId, name: 'All' },
      });
      const other = await newOwner(t.app.api);
      for (const [method, body] of [
        ['get', undefined],
        ['patch', { name: 'Mine now' }],
        ['delete', undefined],
      ] as const) {
        const answer = await t.app.api[method](`/commerce/product-sets/${created.body.id}`, { token: other.key, body });
        expect([answer.status, answer.body.code]).to.deep.equal([404, 'not_found']);
      }
      const before = (await commerce.calls()).updateProductSet ?? 0;
      const refused = await t.app.api.patch(`/commerce/product-sets/${created.body.id}`, {
        token: t.owner.key,
        body: { filter: { combinator: 'or', conditions: [{ field: 'price', operator: 'lt' }] } },
      });
      expect(refused.status).to.equal(400);
      expect((await commerce.calls()).updateProductSet ?? 0).to.equal(before);
    });
  },
);
