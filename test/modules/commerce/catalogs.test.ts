import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectPage, newCatalog, product, testCommerceSettings } from './support.js';

describeApi(
  'catalogs — GET|POST /commerce/catalogs, GET|DELETE /commerce/catalogs/{catalogId}',
  { settings: { ...testCommerceSettings() } },
  (t) => {
    const { commerce } = t.sandbox;

    it('creates a catalog owned by the page’s business and lists it with those made on the platform', async () => {
      const shop = await newCatalog(t.app, t.owner, 'Made here');
      const created = await t.app.api.get(`/commerce/catalogs?accountId=${shop.accountId}`, { token: t.owner.key });
      expect(created.status).to.equal(200);
      expect(created.body.data).to.have.length(1);
      expect(created.body.data[0]).to.include({
        id: shop.catalogId,
        name: 'Made here',
        vertical: 'commerce',
        productCount: 0,
        productsReadAt: null,
      });

      // Another catalog of the same business, made in the commerce manager (the API serves as that tool here).
      const businessId = created.body.data[0].businessId;
      const second = await t.app.api.post('/commerce/catalogs', {
        token: t.owner.key,
        body: { accountId: shop.accountId, businessId, name: 'Hotels', vertical: 'hotels' },
      });
      expect(second.status, JSON.stringify(second.body)).to.equal(201);
      await t.app.services.db('commerceCatalogs').where({ id: second.body.id }).delete();

      const listed = await t.app.api.get('/commerce/catalogs', { token: t.owner.key });
      expect(listed.body.data.map((c: any) => c.name)).to.deep.equal(['Hotels', 'Made here']);
      expect(listed.body.data[0].id, 'a new id for a catalog first seen').to.not.equal(second.body.id);
      expect(listed.body.data[1].id).to.equal(shop.catalogId);
    });

    it('reads one catalog with the platform’s product count as it is now', async () => {
      const shop = await newCatalog(t.app, t.owner, 'Read me');
      await commerce.addByHand(shop.platformCatalogId, [
        {
          id: 'HAND-1',
          title: 'Hand-made',
          price: '7.50 EUR',
          availability: 'in stock',
          link: 'https://shop.example/1',
          image_link: 'https://cdn.example/a.jpg',
        },
      ]);
      const read = await t.app.api.get(`/commerce/catalogs/${shop.catalogId}`, { token: t.owner.key });
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(read.body).to.include({ id: shop.catalogId, accountId: shop.accountId, name: 'Read me', productCount: 1 });
    });

    it('deletes a catalog on the platform and forgets it with its products: 204, then 404', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const deleted = await t.app.api.delete(`/commerce/catalogs/${shop.catalogId}`, { token: t.owner.key });
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(204);
      expect((await commerce.calls()).deleteCatalog).to.be.at.least(1);
      const listed = await t.app.api.get(`/commerce/catalogs?accountId=${shop.accountId}`, { token: t.owner.key });
      expect(listed.body.data, 'gone from the platform too, so not read back').to.deep.equal([]);
      expect((await t.app.api.get(`/commerce/catalogs/${shop.catalogId}`, { token: t.owner.key })).status).to.equal(404);
      expect((await t.app.api.get(`/commerce/products?catalogId=${shop.catalogId}`, { token: t.owner.key })).status).to.equal(404);
      expect((await t.app.api.delete(`/commerce/catalogs/${shop.catalogId}`, { token: t.owner.key })).status).to.equal(404);
    });

    it('answers 204 to a deletion asked again after its answer was lost, deleting the catalog once', async () => {
      const shop = await newCatalog(t.app, t.owner);
      await commerce.configure({ loseNextAnswerOf: 'deleteCatalog' });
      const before = (await commerce.calls()).deleteCatalog ?? 0;
      const lost = await t.app.api.delete(`/commerce/catalogs/${shop.catalogId}`, { token: t.owner.key });
      expect(lost.status).to.equal(502);
      const again = await t.app.api.delete(`/commerce/catalogs/${shop.catalogId}`, { token: t.owner.key });
      expect(again.status, JSON.stringify(again.body)).to.equal(204);
      expect((await commerce.calls()).deleteCatalog! - before, 'deleted once, then looked for').to.equal(1);
      expect((await t.app.api.get(`/commerce/catalogs/${shop.catalogId}`, { token: t.owner.key })).status).to.equal(404);
    });

    it('answers 404 catalog_not_found for a catalog deleted on the platform by other means, and forgets it with its products', async () => {
      const shop = await newCatalog(t.app, t.owner);
      const sent = await t.app.api.post('/commerce/products', {
        token: t.owner.key,
        body: { catalogId: shop.catalogId, ...product('GONE-1') },
      });
      expect(sent.status).to.equal(201);
      await commerce.deleteByHand(shop.platformCatalogId);
      const gone = await t.app.api.delete(`/commerce/catalogs/${shop.catalogId}`, { token: t.owner.key });
      expect([gone.status, gone.body.code]).to.deep.equal([404, 'catalog_not_found']);
      expect((await t.app.api.get(`/commerce/products/${sent.body.id}`, { token: t.owner.key })).status).to.equal(404);
      expect(await t.app.services.db('commerceCatalogs').where({ id: shop.catalogId }).first()).to.equal(undefined);
      expect(await t.app.services.db('commerceProducts').where({ id: sent.body.id }).first()).to.equal(undefined);
    });

    it('answers 422 permission_missing for a page connected without catalog_management, saying to reconnect', async () => {
      const page = await connectPage(t.app, t.owner, ['catalog_management']);
      const refused = await t.app.api.post('/commerce/catalogs', { token: t.owner.key, body: { accountId: page.accountId, name: 'Shop' } });
      expect(refused.status).to.equal(422);
      expect(refused.body).to.include({ code: 'permission_missing', scope: 'catalog_management', action: 'reconnect_account' });
      const listed = await t.app.api.get(`/commerce/catalogs?accountId=${page.accountId}`, { token: t.owner.key });
      expect(listed.status).to.equal(422);
      expect(listed.body.code).to.equal('permission_missing');
      const all = await t.app.api.get('/commerce/catalogs', { token: t.owner.key });
      expect(all.status, 'the account is left out of the whole list').to.equal(200);
    });

    it('answers 422 commerce_business_required for a page no business owns', async () => {
      const page = await connectPage(t.app, t.owner);
      await commerce.ownPage(page.pageId, { business: false });
      const refused = await t.app.api.post('/commerce/catalogs', { token: t.owner.key, body: { accountId: page.accountId, name: 'Shop' } });
      expect(refused.status).to.equal(422);
      expect(refused.body.code).to.equal('commerce_business_required');
    });

    it('answers 502 with the platform’s reason when the business is not verified', async () => {
      const page = await connectPage(t.app, t.owner);
      await commerce.ownPage(page.pageId, { verified: false });
      const refused = await t.app.api.post('/commerce/catalogs', { token: t.owner.key, body: { accountId: page.accountId, name: 'Shop' } });
      expect(refused.status).to.equal(502);
      expect(refused.body.detail).to.match(/business verification/);
    });

    it('answers 429 with Retry-After when the platform throttles', async () => {
      const page = await connectPage(t.app, t.owner);
      await t.sandbox.socialNetwork.failNextCall({
        code: 80014,
        message: '(#80014) There have been too many calls for this catalog.',
        headers: { 'Retry-After': '30' },
      });
      const throttled = await t.app.api.post('/commerce/catalogs', {
        token: t.owner.key,
        body: { accountId: page.accountId, name: 'Shop' },
      });
      expect(throttled.status).to.equal(429);
      expect(throttled.body.code).to.equal('platform_rate_limited');
    });
  },
);
