import { expect } from 'chai';
import { type AdAccountChange, adAccountChanges } from '../../src/platforms/social-network/ad-account-webhooks.js';

describe('the ad_account Graph object — its webhooks read as changes', () => {
  const notification = (id: string | number, changes: unknown[]) => ({
    object: 'ad_account',
    entry: [{ id, time: 1_764_000_000, changes }],
  });

  it('names the ad account as connections keep it, whether the entry says act_ or not', () => {
    const change = { field: 'in_process_ad_objects', value: { id: '120', level: 'AD_SET', status_name: 'Pending review' } };
    for (const id of ['act_1001', '1001', 1001]) {
      expect(adAccountChanges.parse(notification(id, [change]))).to.deep.equal([
        {
          kind: 'ad_account_change',
          platformAdAccountId: 'act_1001',
          at: new Date(1_764_000_000_000),
          change: { field: 'in_process_ad_objects', objectId: '120', level: 'adset', statusName: 'Pending review' },
        },
      ]);
    }
  });

  it('reads issues and recommendations, and leaves out fields and changes it cannot name an object or a kind for', () => {
    const parsed = adAccountChanges.parse(
      notification('act_1001', [
        {
          field: 'with_issues_ad_objects',
          value: { id: '7', level: 'CREATIVE', error_code: '1487390', error_summary: 'S', error_message: 'M' },
        },
        { field: 'ad_recommendations', value: { ad_object_ids: [7], recommendation_type: 'BUDGET', recommendation_signature: 'sig' } },
        { field: 'in_process_ad_objects', value: { level: 'AD', status_name: 'Active' } },
        { field: 'in_process_ad_objects', value: { id: '8', level: 'ACCOUNT', status_name: 'Active' } },
        { field: 'product_set_issue', value: { id: '9' } },
      ]),
    );
    expect((parsed as AdAccountChange[]).map((event) => event.change)).to.deep.equal([
      { field: 'with_issues_ad_objects', objectId: '7', level: 'creative', errorCode: 1487390, errorSummary: 'S', errorMessage: 'M' },
      {
        field: 'ad_recommendations',
        objectIds: ['7'],
        recommendationType: 'BUDGET',
        recommendationMessage: '',
        recommendationStage: null,
        recommendationHash: 'sig',
      },
    ]);
  });
});
