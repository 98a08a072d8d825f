import { expect } from 'chai';
import { pairNumber } from '../support/sandbox/qrchat.js';
import { until } from '../support/wait.js';
import { describeRestart } from './restartable.js';

describeRestart('sandbox — a restart under connected chat numbers', (t) => {
  it("chatapp-cloud: the number's token still reads it, its webhooks still come, and a new number gets new ids", async () => {
    const number = await t.people.chatappCloud.newNumber();
    const connected = await t.app.api.post('/connect/chatapp-cloud', {
      token: t.owner.key,
      body: { profileId: t.owner.profileId, phoneNumberId: number.phoneNumberId, wabaId: number.wabaId, accessToken: number.accessToken },
    });
    expect(connected.status, JSON.stringify(connected.body)).to.equal(201);

    await t.restart();

    const about = await t.app.api.get(`/accounts/${connected.body.id}/about`, { token: t.owner.key });
    expect(about.status, JSON.stringify(about.body)).to.equal(200);
    expect(about.body).to.include({ name: 'Acme Coffee' });
    expect((await t.people.chatappCloud.sendMessage(number.phoneNumberId, 'Still open after the restart?')).webhookStatus).to.equal(200);
    const conversations = await until(() => t.app.api.get(`/accounts/${connected.body.id}/conversations`, { token: t.owner.key }), {
      done: (listed) => listed.body.data.length > 0,
      what: 'the message to be in a conversation',
    });
    expect(conversations.body.data.map((conversation: { lastMessage: { text: string } }) => conversation.lastMessage.text)).to.deep.equal([
      'Still open after the restart?',
    ]);
    const another = await t.people.chatappCloud.newNumber();
    expect([another.wabaId, another.phoneNumberId]).to.not.include.members([number.wabaId, number.phoneNumberId]);
  });

  it('qrchat: the paired session resumes on the restarted servers and receives, and a new device gets a new id', async () => {
    const accountId = await pairNumber(t.app, t.owner, '+4915100000001');
    const [paired] = await t.people.qrchat.linkedDevices('+4915100000001');

    await t.restart();

    await until(() => t.people.qrchat.sendMessage({ to: '+4915100000001', text: 'Still there after the restart?' }), {
      done: (delivered) => delivered === 1,
      what: 'the session to be open again on the restarted sandbox',
    });
    const conversations = await until(() => t.app.api.get(`/accounts/${accountId}/conversations`, { token: t.owner.key }), {
      done: (listed) => listed.body.data.length > 0,
      what: 'the message to be in a conversation',
    });
    expect(conversations.body.data[0].lastMessage.text).to.equal('Still there after the restart?');
    await pairNumber(t.app, t.owner, '+4915100000002');
    const [another] = await t.people.qrchat.linkedDevices('+4915100000002');
    const sequence = (device: string | undefined) => /:(\d+)@/.exec(device ?? '')?.[1];
    expect(sequence(another)).to.not.equal(sequence(paired));
  });
});
