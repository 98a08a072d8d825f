import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectPage, newCatalog, testCommerceSettings } from './support.js';

describeApi('listShops — GET /commerce/shops', { settings: { ...testCommerceSettings() } }, (t) => {
  const { commerce } = t.sandbox;

  it('reads the pages’ shops live from their commerce accounts, each linked to our catalog', async () => {
    const shop = await newCatalog(t.app, t.owner);
    const storefront = await commerce.newShop(shop.pageId, { name: 'Acme Coffee', catalogId: shop.platformCatalogId });
    await commerce.newShop(shop.pageId, { name: 'Acme Tea', status: 'draft' });
    const other = await connectPage(t.app, t.owner);

    const listed = await t.app.api.get('/commerce/shops', { token: t.owner.key });
    expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
    expect(listed.body.data.map((s: any) => [s.name, s.status, s.catalogId])).to.have.deep.members([
      ['Acme Coffee', 'active', shop.catalogId],
      ['Acme Tea', 'draft', null],
    ]);
    const coffee = listed.body.data.find((s: any) => s.name === 'Acme Coffee');
    expect(coffee).to.include({ id: storefront.id, merchantSettingsId: storefront.merchantSettingsId, accountId: shop.accountId });
    expect(coffee.url).to.be.a('string');

    const byCatalog = await t.app.api.get(`/commerce/shops?catalogId=${shop.catalogId}`, { token: t.owner.key });
    expect(byCatalog.body.data.map((s: any) => s.name)).to.deep.equal(['Acme Coffee']);
    const none = await t.app.api.get(`/commerce/shops?accountId=${other.accountId}`, { token: t.owner.key });
    expect(none.body).to.deep.equal({ data: [], nextCursor: null });
  });

  it('pages the shops by our cursor', async () => {
    const shop = await newCatalog(t.app, t.owner);
    for (const name of ['A', 'B', 'C']) await commerce.newShop(shop.pageId, { name });
    const first = await t.app.api.get('/commerce/shops?limit=2', { token: t.owner.key });
    expect(first.body.data).to.have.length(2);
    const second = await t.app.api.get(`/commerce/shops?limit=2&cursor=${first.body.nextCursor}`, { token: t.owner.key });
    expect(second.body).to.include({ nextCursor: null });
    expect([...first.body.data, ...second.body.data].map((s: any) => s.name).sort()).to.deep.equal(['A', 'B', 'C']);
  });
});
