import { expect } from 'chai';
import { connectNewPage } from '../support/sandbox/social-network.js';
import { connectThreads } from '../support/sandbox/social-threads.js';
import { describeRestart } from './restartable.js';

describeRestart('sandbox — a restart under connected social accounts', (t) => {
  it('social_network: the page token still posts, and the new post gets a new id', async () => {
    const page = await connectNewPage(t.app, t.owner);
    const before = await t.publish(page.accountId, 'Before the restart');

    await t.restart();

    const after = await t.publish(page.accountId, 'After the restart');
    expect(after).to.not.equal(before);
    const onPage = (await t.people.socialNetwork.onPlatform(page.pageId)).posts.map((post) => [post.id, post.message]);
    expect(onPage).to.have.deep.members([
      [before, 'Before the restart'],
      [after, 'After the restart'],
    ]);
  });

  it('social_threads: the token still publishes, and the new thread gets a new id', async () => {
    const person = await connectThreads(t.app, t.owner);
    const before = await t.publish(person.accountId, 'Before the restart');

    await t.restart();

    const after = await t.publish(person.accountId, 'After the restart');
    expect(after).to.not.equal(before);
    const threads = (await t.people.socialThreads.onPlatform(person.userId)).threads.map((thread) => [thread.id, thread.text]);
    expect(threads).to.have.deep.members([
      [before, 'Before the restart'],
      [after, 'After the restart'],
    ]);
  });
});
