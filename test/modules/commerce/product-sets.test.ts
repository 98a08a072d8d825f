import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { creating, finishedBatch, newCatalog, sendBatch, testCommerceSettings } from './support.js';

describeApi('product sets — GET|POST /commerce/product-sets', { settings: { ...testCommerceSettings() } }, (t) => {
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
});
