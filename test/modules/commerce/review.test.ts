import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { until } from '../../support/wait.js';
import { creating, finishedBatch, newCatalog, sendBatch, testCommerceSettings } from './support.js';

describeApi(
  'listProducts — reviews polled on the platform until it decides',
  {
    settings: {
      ...testCommerceSettings({ COMMERCE_REVIEW_FIRST_LOOK_MS: '100', COMMERCE_REVIEW_LAST_LOOK_MS: '400' }),
    },
  },
  (t) => {
    const { commerce } = t.sandbox;
    const list = (catalogId: string) => t.app.api.get(`/commerce/products?catalogId=${catalogId}`, { token: t.owner.key });

    it('shows a pending review approved or rejected with the platform’s reasons, with no refresh asked for', async () => {
      await commerce.configure({ reviewMs: 1500 });
      const shop = await newCatalog(t.app, t.owner);
      const sent = await sendBatch(t.app, t.owner, shop.catalogId, [
        creating('R-OK'),
        creating('R-BAD', { title: 'Replica weapon', imageLink: 'https://cdn.example/ok.jpg' }),
      ]);
      await finishedBatch(t.app, t.owner, sent.body.id);
      const review = (answer: Awaited<ReturnType<typeof list>>) =>
        Object.fromEntries(answer.body.data.map((p: any) => [p.retailerId, p.reviewStatus]));
      expect(review(await list(shop.catalogId))).to.deep.equal({ 'R-OK': 'pending', 'R-BAD': 'pending' });

      const decided = await until(() => list(shop.catalogId), {
        done: (answer) => Object.values(review(answer)).every((status) => status !== 'pending'),
        what: 'the platform’s review of both products, read by the poller',
      });
      expect(review(decided)).to.deep.equal({ 'R-OK': 'approved', 'R-BAD': 'rejected' });
      const rejected = decided.body.data.find((p: any) => p.retailerId === 'R-BAD');
      expect(rejected.sync.errors[0]).to.include({ code: 'policy_violation' });
      expect(rejected.sync.status, 'the poller changes the review, not what we sent').to.equal('synced');
    });
  },
);
