import { expect } from 'chai';
import { connectLocations, localPosts } from '../support/sandbox/search-suite.js';
import { describeRestart } from './restartable.js';

describeRestart('sandbox — a restart under a connected business location', (t) => {
  it("search_suite: the location's token still posts, and the new local post gets a new id", async () => {
    const [location] = await connectLocations(t.app, t.owner);
    const before = await t.publish(location!, 'Before the restart');

    await t.restart();

    const after = await t.publish(location!, 'After the restart');
    expect(after).to.not.equal(before);
    const onPlatform = (await localPosts(t.app, location!)).map((post) => [post.name, post.summary]);
    expect(onPlatform).to.deep.equal([
      [after, 'After the restart'],
      [before, 'Before the restart'],
    ]);
  });
});
