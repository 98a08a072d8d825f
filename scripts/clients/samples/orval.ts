/**
 * A partner's program on the fetch client orval generates from the served contract (its address read from the
 * document's server, this instance's PUBLIC_URL). Each answer is a union by status: narrowing on the status
 * types its body.
 */
import {
  connectBotchat,
  createApiKey,
  createHook,
  createPost,
  createProfile,
  createQueueSlot,
  enqueuePost,
  signUp,
  uploadMedia,
} from './orval/api.js';
import { newSignUp, type Outcome, type World, withDelivery } from './world.js';

function refused(what: string, answer: { status: number; data: unknown }): Error {
  return new Error(`${what} refused: ${answer.status} ${JSON.stringify(answer.data)}`);
}

export async function run(world: World): Promise<Outcome> {
  const signedUp = await signUp(newSignUp());
  if (signedUp.status !== 201) throw refused('sign-up', signedUp);
  const created = await createApiKey({ name: 'orval' }, { headers: { Authorization: `Bearer ${signedUp.data.session.token}` } });
  if (created.status !== 201) throw refused('key', created);
  const auth = { headers: { Authorization: `Bearer ${created.data.key}` } };

  const profile = await createProfile({ name: 'Winter blend' }, auth);
  if (profile.status !== 201) throw refused('profile', profile);
  const profileId = profile.data.id;
  const account = await connectBotchat({ profileId, botToken: world.botToken }, auth);
  if (account.status !== 201) throw refused('bot', account);
  const accountId = account.data.id;
  const hook = await createHook({ url: world.hookUrl, events: ['post.published'] }, auth);
  if (hook.status !== 201) throw refused('hook', hook);

  const media = await uploadMedia({ file: world.picture, profileId }, auth);
  if (media.status !== 201) throw refused('upload', media);
  const platformOptions = { botchat: { chatIds: [world.chatId] } };
  const post = await createPost(
    { accountIds: [accountId], text: 'Our winter blend is back.', mediaIds: [media.data.id], publishNow: true, platformOptions },
    { headers: { ...auth.headers, 'Idempotency-Key': `winter-blend-${profileId}` } },
  );
  if (post.status !== 202) throw refused('post', post);

  const slot = await createQueueSlot({ profileId, dayOfWeek: 'monday', time: '09:00', timezone: 'Europe/Berlin' }, auth);
  if (slot.status !== 201) throw refused('slot', slot);
  const queued = await enqueuePost({ post: { accountIds: [accountId], text: 'Fresh beans on Monday.', platformOptions } }, auth);
  if (queued.status !== 201) throw refused('queueing', queued);

  return withDelivery(world, hook.data.secret, { accountId, mediaId: media.data.id, postId: post.data.id, queued: queued.data });
}
