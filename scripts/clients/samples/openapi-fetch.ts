/**
 * A partner's program on openapi-fetch, with the types openapi-typescript generates from the served contract
 * (through its documented transform of `format: binary` to Blob, which only its Node API takes).
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './openapi-typescript/api.js';
import { newSignUp, type Outcome, type World, withDelivery } from './world.js';

type UploadBody = components['schemas']['MediaUpload'];

/** The members as multipart/form-data parts; fetch writes the boundary. */
function formData(body: UploadBody): FormData {
  const form = new FormData();
  form.append('file', body.file);
  if (body.profileId !== undefined) form.append('profileId', body.profileId);
  return form;
}

export async function run(world: World): Promise<Outcome> {
  const anonymous = createClient<paths>({ baseUrl: world.baseUrl });
  const signedUp = await anonymous.POST('/auth/signup', { body: newSignUp() });
  if (!signedUp.data) throw new Error(`sign-up refused: ${JSON.stringify(signedUp.error)}`);
  const created = await anonymous.POST('/api-keys', {
    headers: { Authorization: `Bearer ${signedUp.data.session.token}` },
    body: { name: 'openapi-fetch' },
  });
  if (!created.data) throw new Error(`key refused: ${JSON.stringify(created.error)}`);

  const client = createClient<paths>({ baseUrl: world.baseUrl, headers: { Authorization: `Bearer ${created.data.key}` } });
  const profile = await client.POST('/profiles', { body: { name: 'Winter blend' } });
  if (!profile.data) throw new Error(`profile refused: ${JSON.stringify(profile.error)}`);
  const profileId = profile.data.id;
  const account = await client.POST('/connect/botchat', { body: { profileId, botToken: world.botToken } });
  if (!account.data) throw new Error(`bot refused: ${JSON.stringify(account.error)}`);
  const accountId = account.data.id;

  const hook = await client.POST('/hooks', { body: { url: world.hookUrl, events: ['post.published'] } });
  if (!hook.data) throw new Error(`hook refused: ${JSON.stringify(hook.error)}`);

  const media = await client.POST('/upload', { body: { file: world.picture, profileId }, bodySerializer: formData });
  if (!media.data) throw new Error(`upload refused: ${JSON.stringify(media.error)}`);

  const platformOptions = { botchat: { chatIds: [world.chatId] } };
  const post = await client.POST('/posts', {
    params: { header: { 'Idempotency-Key': `winter-blend-${profileId}` } },
    body: { accountIds: [accountId], text: 'Our winter blend is back.', mediaIds: [media.data.id], publishNow: true, platformOptions },
  });
  if (!post.data) throw new Error(`post refused: ${JSON.stringify(post.error)}`);

  const slot = await client.POST('/queue/slots', { body: { profileId, dayOfWeek: 'monday', time: '09:00', timezone: 'Europe/Berlin' } });
  if (!slot.data) throw new Error(`slot refused: ${JSON.stringify(slot.error)}`);
  const queued = await client.POST('/queue', {
    body: { post: { accountIds: [accountId], text: 'Fresh beans on Monday.', platformOptions } },
  });
  if (!queued.data) throw new Error(`queueing refused: ${JSON.stringify(queued.error)}`);

  return withDelivery(world, hook.data.secret, { accountId, mediaId: media.data.id, postId: post.data.id, queued: queued.data });
}

// The contract's choices reach the types: a post says when to publish, and a queued post's text is a string.
// @ts-expect-error publishNow, scheduledAt or useQueue is required
export const undecided: components['schemas']['PostCreate'] = { accountIds: ['acc_01jd3y6w7q5v8k0n2b4c6e8g1h'], text: 'When?' };
// @ts-expect-error text is a string
export const mistyped: components['schemas']['QueueEnqueue'] = { post: { accountIds: ['acc_01jd3y6w7q5v8k0n2b4c6e8g1h'], text: 42 } };
