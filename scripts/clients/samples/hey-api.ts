/**
 * A program written against the client that @hey-api/openapi-ts generates from the contract. It is never run:
 * scripts/clients/check.ts generates the client beside it and typechecks both under --strict.
 */
import { formDataBodySerializer } from './hey-api/client/index.js';
import { client } from './hey-api/client.gen.js';
import {
  createHook,
  createPost,
  enqueuePost,
  uploadMedia,
  type MediaUpload,
  type UploadMediaErrors,
  type UploadMediaResponses,
} from './hey-api/index.js';

client.setConfig({ baseUrl: 'http://127.0.0.1:8080', auth: () => 'sgk_example' });

export async function publishWithAPicture(picture: File, accountId: string): Promise<string> {
  // The operation's own function sends JSON (a URL to import); a file goes as multipart/form-data with the
  // generated MediaUpload type, whose `file` is a Blob or File.
  const upload: MediaUpload = { file: picture };
  const uploaded = await client.post<UploadMediaResponses, UploadMediaErrors, true>({
    url: '/upload',
    body: upload,
    ...formDataBodySerializer,
    headers: { 'Content-Type': null },
    security: [{ scheme: 'bearer', type: 'http' }],
    throwOnError: true,
  });
  const imported = await uploadMedia({ body: { url: 'https://cdn.example.com/winter-blend.jpg' }, throwOnError: true });

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
