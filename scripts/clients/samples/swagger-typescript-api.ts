/**
 * A partner's program on the client swagger-typescript-api generates from the served contract (its address is
 * the document's server, this instance's PUBLIC_URL). Enumerations are its TypeScript enums; a refused request
 * throws the answer.
 */
import { Api, EventName, QueueSlotDayOfWeek } from './swagger-typescript-api/Api.js';
import { newSignUp, type Outcome, type World, withDelivery } from './world.js';

export async function run(world: World): Promise<Outcome> {
  const api = new Api<string>({ securityWorker: (bearer) => (bearer ? { headers: { Authorization: `Bearer ${bearer}` } } : {}) });
  const signedUp = await api.auth.signUp(newSignUp());
  api.setSecurityData(signedUp.data.session.token);
  const created = await api.apiKeys.createApiKey({ name: 'swagger-typescript-api' });
  api.setSecurityData(created.data.key);

  const profile = await api.profiles.createProfile({ name: 'Winter blend' });
  const profileId = profile.data.id;
  const account = await api.connect.connectBotchat({ profileId, botToken: world.botToken });
  const accountId = account.data.id;
  const hook = await api.hooks.createHook({ url: world.hookUrl, events: [EventName.PostPublished] });

  const media = await api.upload.uploadMedia({ file: world.picture, profileId });
  const platformOptions = { botchat: { chatIds: [world.chatId] } };
  const post = await api.posts.createPost(
    { accountIds: [accountId], text: 'Our winter blend is back.', mediaIds: [media.data.id], publishNow: true, platformOptions },
    { headers: { 'Idempotency-Key': `winter-blend-${profileId}` } },
  );

  await api.queue.createQueueSlot({ profileId, dayOfWeek: QueueSlotDayOfWeek.Monday, time: '09:00', timezone: 'Europe/Berlin' });
  const queued = await api.queue.enqueuePost({ post: { accountIds: [accountId], text: 'Fresh beans on Monday.', platformOptions } });

  return withDelivery(world, hook.data.secret, { accountId, mediaId: media.data.id, postId: post.data.id, queued: queued.data });
}
