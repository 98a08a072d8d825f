import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { type Generator, GENERATORS, generateClients, typecheckPrograms } from '../../scripts/clients/generate.js';
import type { Outcome, World } from '../../scripts/clients/samples/world.js';
import { describeApi } from '../support/harness.js';

const root = new URL('../..', import.meta.url).pathname;
const PICTURE = readFileSync(new URL('../fixtures/media/tiny.jpg', import.meta.url));

/** Node's header values, as the receiver of a signed delivery reads them. */
function singleValued(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));
}

describeApi('generated clients — what partners generate from /openapi.json, run against the service', { owner: false }, (t) => {
  const { botchat } = t.sandbox;
  let dir: string;

  before('generate each client from the served document, and compile the programs against them', async function () {
    this.timeout(300_000);
    // Inside the repository, so the programs resolve its node_modules (openapi-fetch, standardwebhooks).
    mkdirSync(join(root, '.tmp'), { recursive: true });
    dir = mkdtempSync(join(root, '.tmp', 'clients-'));
    const started = performance.now();
    const timings = await generateClients(`${t.app.url}/openapi.json`, dir);
    const generated = performance.now();
    await typecheckPrograms(dir);
    console.log(
      `    generated in ${Math.round(generated - started)} ms (${JSON.stringify(timings)}), compiled in ${Math.round(performance.now() - generated)} ms`,
    );
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const generator of Object.keys(GENERATORS) as Generator[]) {
    it(`${generator}: signs up, makes a key and a profile, connects a bot, uploads a picture, posts it, queues one, and receives the signed post.published`, async function () {
      this.timeout(60_000);
      const { token } = await botchat.newBot('Partner');
      const world: World = {
        baseUrl: t.app.url,
        botToken: token,
        chatId: '5150',
        picture: new File([PICTURE], 'cup.jpg', { type: 'image/jpeg' }),
        hookUrl: t.inbox.url,
        nextDelivery: async () => {
          const [delivery] = await t.inbox.waitFor(1, 15_000);
          return { headers: singleValued(delivery!.headers), rawBody: delivery!.rawBody };
        },
      };
      const program: { run(world: World): Promise<Outcome> } = await import(join(dir, `${generator}.ts`));
      const outcome = await program.run(world);

      expect(outcome.delivered).to.deep.equal({ event: 'post.published', postId: outcome.postId });
      const sent = await botchat.onPlatform(token);
      expect(sent.map((message) => [message.chatId, message.caption, Boolean(message.photo)])).to.deep.equal([
        [5150, 'Our winter blend is back.', true],
      ]);
      const slot = DateTime.fromISO(outcome.queued.scheduledAt).setZone('Europe/Berlin');
      expect([slot.weekday, slot.toFormat('HH:mm')]).to.deep.equal([1, '09:00']);
      expect(slot.toMillis()).to.be.above(Date.now());
    });
  }
});
