/**
 * A partner's program on the SDK @hey-api/openapi-ts generates from the served contract: each operation's own
 * function, as generated; the client's address is the document's server, this instance's PUBLIC_URL.
 */
import { client } from './hey-api/client.gen.js';
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
} from './hey-api/index.js';
import { newSignUp, type Outcome, type World, withDelivery } from './world.js';

export async function run(world: World): Promise<Outcome> {
  const signedUp = await signUp({ body: newSignUp(), throwOnError: true });
  const created = await createApiKey({ body: { name: '@hey-api/openapi-ts' }, auth: signedUp.data.session.token, throwOnError: true });
  client.setConfig({ auth: created.data.key });

  const profile = await createProfile({ body: { name: 'Winter blend' }, throwOnError: true });
  const profileId = profile.data.id;
  const account = await connectBotchat({ body: { profileId, botToken: world.botToken }, throwOnError: true });
  const accountId = account.data.id;
  const hook = await createHook({ body: { url: world.hookUrl, events: ['post.published'] }, throwOnError: true });

  const media = await uploadMedia({ body: { file: world.picture, profileId }, throwOnError: true });
  const platformOptions = { botchat: { chatIds: [world.chatId] } };
  const post = await createPost({
    headers: { 'Idempotency-Key': `winter-blend-${profileId}` },
    body: { accountIds: [accountId], text: 'Our winter blend is back.', mediaIds: [media.data.id], publishNow: true, platformOptions },
    throwOnError: true,
  });

  await createQueueSlot({ body: { profileId, dayOfWeek: 'monday', time: '09:00', timezone: 'Europe/Berlin' }, throwOnError: true });
  const queued = await enqueuePost({
    body: { post: { accountIds: [accountId], text: 'Fresh beans on Monday.', platformOptions } },
    throwOnError: true,
  });

  return withDelivery(world, hook.data.secret, { accountId, mediaId: media.data.id, postId: post.data.id, queued: queued.data });
}
