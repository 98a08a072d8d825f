/**
 * A program written against openapi-fetch and the types openapi-typescript generates from the contract (with
 * its documented transform of `format: binary` to Blob). It is never run: scripts/clients/check.ts generates
 * the types beside it and typechecks both under --strict.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './openapi-typescript/api.js';

type UploadBody = components['schemas']['MediaUpload'];

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080', headers: { Authorization: 'Bearer sgk_example' } });

/** The members as multipart/form-data parts; the browser or undici writes the boundary. */
function formData(body: UploadBody): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) if (value !== undefined) form.append(name, value);
  return form;
}

export async function publishWithAPicture(picture: Blob, accountId: string): Promise<string> {
  // A file part as multipart/form-data; a URL to import, as JSON, to its own operation.
  const uploaded = await client.POST('/upload', { body: { file: picture }, bodySerializer: formData });
  const imported = await client.POST('/upload/url', { body: { url: 'https://cdn.example.com/winter-blend.jpg' } });
  if (!uploaded.data || !imported.data) throw new Error('upload refused');

  const post = await client.POST('/posts', {
    params: { header: { 'Idempotency-Key': 'a5b1c2d3-winter-blend' } },
    body: {
      accountIds: [accountId],
      text: 'Our winter blend is back.',
      mediaIds: [uploaded.data.id, imported.data.id],
      scheduledAt: '2030-01-01T08:00:00Z',
    },
  });
  // @ts-expect-error a post says when to publish: publishNow, scheduledAt or useQueue
  await client.POST('/posts', { body: { accountIds: [accountId], text: 'When?' } });

  await client.POST('/queue', { body: { post: { accountIds: [accountId], text: 'And fresh beans on Monday.' } } });
  // @ts-expect-error a queued post's members are typed: its text is a string
  await client.POST('/queue', { body: { post: { accountIds: [accountId], text: 42 } } });

  const hook = await client.POST('/hooks', {
    body: { url: 'https://hooks.example.com/socialgate', events: ['post.published', 'post.failed'] },
  });
  if (!post.data || !hook.data) throw new Error('refused');
  return `${post.data.id} ${post.data.status} ${hook.data.secret.length}`;
}
