/**
 * A program written against the client that @hey-api/openapi-ts generates from the contract. It is never run:
 * scripts/clients/check.ts generates the client beside it and typechecks both under --strict.
 */
import { client } from './hey-api/client.gen.js';
import { createHook, createPost, enqueuePost, importMedia, uploadMedia } from './hey-api/index.js';

client.setConfig({ baseUrl: 'http://127.0.0.1:8080', auth: () => 'sgk_example' });

export async function publishWithAPicture(picture: File, accountId: string): Promise<string> {
  // Each operation's own function, as generated: the file goes as multipart/form-data, the URL as JSON.
  const uploaded = await uploadMedia({ body: { file: picture }, throwOnError: true });
  const imported = await importMedia({ body: { url: 'https://cdn.example.com/winter-blend.jpg' }, throwOnError: true });

  const post = await createPost({
    body: {
      accountIds: [accountId],
      text: 'Our winter blend is back.',
      mediaIds: [uploaded.data.id, imported.data.id],
      scheduledAt: '2030-01-01T08:00:00Z',
    },
    headers: { 'Idempotency-Key': 'a5b1c2d3-winter-blend' },
    throwOnError: true,
  });
  await enqueuePost({ body: { post: { accountIds: [accountId], text: 'And fresh beans on Monday.' } }, throwOnError: true });

  const hook = await createHook({
    body: { url: 'https://hooks.example.com/socialgate', events: ['post.published', 'post.failed'] },
    throwOnError: true,
  });
  const secret: string = hook.data.secret;
  return `${post.data.id} ${post.data.status} ${secret.length}`;
}
