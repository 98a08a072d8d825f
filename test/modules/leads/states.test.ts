import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { restrictedKey } from '../../support/owners.js';
import { leadsTestSettings, pageWithForm } from './support.js';

describeApi('lead states — the pipeline, its history and If-Match', { settings: leadsTestSettings() }, (t) => {
  /** A page with a form and a simulated lead on it. */
  async function pageWithLead() {
    const page = await pageWithForm(t);
    const made = await t.app.api.post(`/accounts/${page.accountId}/lead-forms/${page.formId}/test-webhook`, {
      token: t.owner.key,
      body: {},
    });
    expect(made.status, made.text).to.equal(202);
    return { ...page, leadId: made.body.id as string };
  }
  const statePath = (page: { accountId: string; leadId: string }) => `/accounts/${page.accountId}/lead-states/${page.leadId}`;

  it('a lead is new until moved; each change is kept with who made it, and the lead says its state', async () => {
    const page = await pageWithLead();
    const first = await t.app.api.get(statePath(page), { token: t.owner.key });
    expect(first.body).to.deep.include({ state: 'new', note: null, assignee: null, version: 0, updatedBy: null, history: [] });
    expect(first.headers.get('etag')).to.equal('"0"');
    const moved = await t.app.api.patch(statePath(page), {
      token: t.owner.key,
      headers: { 'If-Match': '"0"' },
      body: { state: 'contacted', note: 'Called on Monday.', assignee: 'jonas@acme.example' },
    });
    expect(moved.status, moved.text).to.equal(200);
    expect(moved.body).to.deep.include({ state: 'contacted', version: 1 });
    const keyId = moved.body.updatedBy as string;
    expect(keyId).to.match(/^key_/);
    expect(moved.headers.get('etag')).to.equal('"1"');
    const won = await t.app.api.patch(statePath(page), { token: t.owner.session, body: { state: 'won', note: null } });
    expect(won.body).to.deep.include({ state: 'won', note: null, assignee: 'jonas@acme.example', version: 2, updatedBy: t.owner.ownerId });
    const history = (await t.app.api.get(statePath(page), { token: t.owner.key })).body.history;
    expect(history.map((c: { version: number; state: string; changedBy: string }) => [c.version, c.state, c.changedBy])).to.deep.equal([
      [2, 'won', t.owner.ownerId],
      [1, 'contacted', keyId],
    ]);
    const [lead] = (await t.app.api.get(`/accounts/${page.accountId}/leads?state=won`, { token: t.owner.key })).body.data;
    expect(lead.id).to.equal(page.leadId);
  });

  it('two people moving the same lead: the second, naming the version it read, is refused 412 and nothing changes', async () => {
    const page = await pageWithLead();
    const read = await t.app.api.get(statePath(page), { token: t.owner.key });
    const etag = read.headers.get('etag')!;
    const first = await t.app.api.patch(statePath(page), {
      token: t.owner.key,
      headers: { 'If-Match': etag },
      body: { state: 'qualified' },
    });
    expect(first.status).to.equal(200);
    const second = await t.app.api.patch(statePath(page), { token: t.owner.key, headers: { 'If-Match': etag }, body: { state: 'spam' } });
    expect(second.status).to.equal(412);
    expect(second.body.code).to.equal('lead_state_changed');
    expect((await t.app.api.get(statePath(page), { token: t.owner.key })).body).to.deep.include({ state: 'qualified', version: 1 });
  });

  it('a change that changes nothing makes no new version', async () => {
    const page = await pageWithLead();
    await t.app.api.patch(statePath(page), { token: t.owner.key, body: { state: 'contacted' } });
    const same = await t.app.api.patch(statePath(page), { token: t.owner.key, body: { state: 'contacted' } });
    expect(same.body.version).to.equal(1);
  });

  it('another profile’s key cannot move the lead (403), another owner finds none (404)', async () => {
    const page = await pageWithLead();
    const other = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'Other' } });
    const key = await restrictedKey(t.app.api, t.owner, [other.body.id]);
    const moved = await t.app.api.patch(statePath(page), { token: key, body: { state: 'won' } });
    expect(moved.status).to.equal(403);
  });

  itPagesByKeyset(t, 'listLeadStates', async (count) => {
    const page = await pageWithForm(t);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const made = await t.app.api.post(`/accounts/${page.accountId}/lead-forms/${page.formId}/test-webhook`, {
        token: t.owner.key,
        body: {},
      });
      ids.push(made.body.id);
    }
    // Moving one makes it the most recently updated.
    await t.app.api.patch(`/accounts/${page.accountId}/lead-states/${ids[1]}`, { token: t.owner.key, body: { state: 'contacted' } });
    const order = [ids[1]!, ...ids.filter((id) => id !== ids[1]).reverse()];
    return {
      path: `/accounts/${page.accountId}/lead-states`,
      ids: order,
      idOf: (state: { leadId: string }) => state.leadId,
      filter: { query: 'state=contacted', ids: [ids[1]!] },
    };
  });

  itPagesByKeyset(t, 'listLeads', async (count) => {
    const page = await pageWithForm(t);
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const made = await t.app.api.post(`/accounts/${page.accountId}/lead-forms/${page.formId}/test-webhook`, {
        token: t.owner.key,
        body: { isOrganic: i % 2 === 0 },
      });
      ids.push(made.body.id);
    }
    return { path: `/accounts/${page.accountId}/leads`, ids: ids.reverse(), filter: { query: 'isTest=false', ids: [] } };
  });
});
