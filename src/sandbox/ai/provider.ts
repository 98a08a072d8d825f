import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { SANDBOX_AI_KEY, SANDBOX_MODELS } from './catalogue.js';
import { type Endpoint, type FaultQueue, providerError } from './faults.js';
import { completionBody, type MessageContent, streamCompletion, textOf } from './chat.js';
import { corruptImage, editImage, makeImage, makeSpeech, speechSeconds } from './make.js';
import { readInstructions, writeCopy } from './text.js';
import { newJob, present, type VideoFiles, type VideoState } from './videos.js';

/** What the provider's routes share: its faults, its video jobs, and the counts a test looks at. */
export interface ProviderState {
  faults: FaultQueue;
  videos: VideoState;
  files: VideoFiles;
  /** Images answered by URL, until they expire. */
  imageFiles: Map<string, Buffer>;
  /** Requests by endpoint; `videos`: jobs made. */
  calls: Record<'chat' | 'images' | 'speech' | 'videos', number>;
  saveNow(): void;
}

type Body = Record<string, unknown>;

function bodyOf(ctx: Context): Body {
  return (ctx.request.body ?? {}) as Body;
}

/** The model named, if it is one of the sandbox's of this kind; otherwise the provider's 404. */
function modelOf(ctx: Context, kind: string): string | null {
  const id = String(bodyOf(ctx).model ?? '');
  if (SANDBOX_MODELS.some((model) => model.id === id && model.kind === kind)) return id;
  providerError(ctx, 404, {
    message: `The model \`${id}\` does not exist or you do not have access to it.`,
    type: 'invalid_request_error',
    code: 'model_not_found',
    param: 'model',
  });
  return null;
}

function invalid(ctx: Context, param: string, message: string): void {
  providerError(ctx, 400, { message, type: 'invalid_request_error', code: 'invalid_value', param });
}

function sizeOf(raw: unknown, allowed: string[]): [number, number] | null {
  const size = String(raw ?? allowed[0]);
  if (!allowed.includes(size)) return null;
  return size.split('x').map(Number) as [number, number];
}

function sizesOf(id: string): string[] {
  return Object.values(SANDBOX_MODELS.find((model) => model.id === id)?.sizes ?? {});
}

/** The first uploaded file of a multipart member (`image`, `image[]`, `input_reference`). */
async function uploaded(ctx: Context, ...names: string[]): Promise<Buffer | null> {
  const files = (ctx.request as { files?: Record<string, unknown> }).files ?? {};
  for (const name of names) {
    const entry = files[name];
    const file = (Array.isArray(entry) ? entry[0] : entry) as { filepath?: string } | undefined;
    if (file?.filepath) return readFile(file.filepath);
  }
  return null;
}

/** The OpenAI-compatible HTTP API, as much of it as the service calls, under `/ai/v1`. */
export function mountProvider(router: Router, sandboxUrl: string, state: ProviderState): void {
  const base = '/ai/v1';
  const authorised = async (ctx: Context, next: () => Promise<unknown>) => {
    // Every answer names its request, as OpenAI's do (the client shows it as `requestID`).
    ctx.set('x-request-id', `req_${randomBytes(16).toString('hex')}`);
    if (ctx.get('authorization') !== `Bearer ${SANDBOX_AI_KEY}`) {
      providerError(ctx, 401, { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' });
      return;
    }
    await next();
  };
  // Every request is counted, those that meet a fault too (a video create counts the jobs it makes).
  const faulty = (endpoint: Endpoint) => async (ctx: Context, next: () => Promise<unknown>) => {
    if (endpoint === 'chat' || endpoint === 'images' || endpoint === 'speech') state.calls[endpoint] += 1;
    if (!(await state.faults.apply(ctx, endpoint, bodyOf(ctx).model as string | undefined))) await next();
  };

  router.get(`${base}/models`, authorised, (ctx) => {
    ctx.body = {
      object: 'list',
      data: SANDBOX_MODELS.map((model) => ({ id: model.id, object: 'model', created: 1_790_000_000, owned_by: 'socialgate-sandbox' })),
    };
  });

  router.post(`${base}/chat/completions`, authorised, faulty('chat'), (ctx) => {
    const model = modelOf(ctx, 'copy');
    if (!model) return;
    const body = bodyOf(ctx);
    const messages = (body.messages ?? []) as Array<{ role: string; content: MessageContent }>;
    const said = (role: string) =>
      messages
        .filter((message) => message.role === role)
        .map((message) => textOf(message.content))
        .join('\n');
    const system = said('system');
    const prompt = said('user');
    if (!prompt) return invalid(ctx, 'messages', 'messages must contain a user message.');
    const maxTokens = (body.max_completion_tokens ?? body.max_tokens) as number | undefined;
    const asked = readInstructions(system, maxTokens);
    const n = Math.min(Number(body.n ?? 1), 8);
    const texts = Array.from({ length: n }, (_, index) => writeCopy(prompt, asked, index));
    const promptTokens = Math.ceil((system.length + prompt.length) / 4);
    const completionTokens = Math.ceil(texts.join('').length / 4);
    const completion = {
      model,
      texts,
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    };
    if (body.stream === true) {
      const options = (body.stream_options ?? {}) as { include_usage?: boolean };
      return streamCompletion(ctx, completion, options.include_usage === true);
    }
    ctx.body = completionBody(completion);
  });

  const answerImages = async (ctx: Context, make: (width: number, height: number) => Promise<Buffer>) => {
    const body = bodyOf(ctx);
    const model = String(body.model);
    const size = sizeOf(body.size, sizesOf(model));
    if (!size) return invalid(ctx, 'size', `size must be one of ${sizesOf(model).join(', ')}.`);
    const corrupt = state.faults.take('images', ['corrupt']);
    const bytes = corrupt ? corruptImage() : await make(...size);
    const expired = state.faults.take('images', ['expired']);
    const asUrl = body.response_format === 'url';
    let item: Record<string, string>;
    if (asUrl) {
      const id = randomBytes(12).toString('hex');
      if (!expired) state.imageFiles.set(id, bytes);
      item = { url: `${sandboxUrl}/ai/files/${id}` };
    } else {
      item = { b64_json: bytes.toString('base64') };
    }
    ctx.body = {
      created: Math.floor(Date.now() / 1000),
      data: [{ ...item, revised_prompt: null }],
      usage: {
        input_tokens: Math.ceil(String(body.prompt).length / 4),
        output_tokens: 0,
        total_tokens: Math.ceil(String(body.prompt).length / 4),
      },
    };
  };

  router.post(`${base}/images/generations`, authorised, faulty('images'), async (ctx) => {
    if (!modelOf(ctx, 'image')) return;
    const body = bodyOf(ctx);
    const format = (['png', 'jpeg', 'webp'].includes(String(body.output_format)) ? body.output_format : 'png') as 'png' | 'jpeg' | 'webp';
    await answerImages(ctx, (width, height) => makeImage(String(body.prompt), width, height, format));
  });

  router.post(`${base}/images/edits`, authorised, faulty('images'), async (ctx) => {
    if (!modelOf(ctx, 'image')) return;
    const reference = await uploaded(ctx, 'image', 'image[]');
    if (!reference) return invalid(ctx, 'image', 'image is required.');
    // Imported on first use, not at every start.
    const { default: sharp } = await import('sharp');
    const readable = await sharp(reference)
      .metadata()
      .then(() => true)
      .catch(() => false);
    if (!readable) return invalid(ctx, 'image', 'The image could not be read.');
    await answerImages(ctx, (width, height) => editImage(reference, String(bodyOf(ctx).prompt), width, height));
  });

  router.get('/ai/files/:id', (ctx) => {
    const file = state.imageFiles.get(ctx.params.id!);
    if (!file) return providerError(ctx, 404, { message: 'The file has expired.', type: 'invalid_request_error', code: 'file_expired' });
    ctx.type = 'application/octet-stream';
    ctx.body = file;
  });

  router.post(`${base}/audio/speech`, authorised, faulty('speech'), async (ctx) => {
    if (!modelOf(ctx, 'audio')) return;
    const body = bodyOf(ctx);
    const input = String(body.input ?? '');
    const model = SANDBOX_MODELS.find((entry) => entry.id === body.model)!;
    if (!input || input.length > (model.maxPromptChars ?? 4096)) return invalid(ctx, 'input', 'input must have 1 to 4096 characters.');
    if (!model.voices?.includes(String(body.voice))) return invalid(ctx, 'voice', `voice must be one of ${model.voices?.join(', ')}.`);
    const format = String(body.response_format ?? 'mp3');
    if (format !== 'mp3' && format !== 'wav') return invalid(ctx, 'response_format', 'response_format must be mp3 or wav here.');
    const corrupt = state.faults.take('speech', ['corrupt']);
    ctx.type = format === 'mp3' ? 'audio/mpeg' : 'audio/wav';
    ctx.body = corrupt ? randomBytes(2048) : await makeSpeech(input, format);
    ctx.set('x-sandbox-seconds', String(speechSeconds(input)));
  });

  router.post(`${base}/videos`, authorised, faulty('videos'), (ctx) => {
    const key = ctx.get('idempotency-key');
    const known = key ? state.videos.jobs.get(state.videos.byIdempotencyKey.get(key) ?? '') : undefined;
    if (known) {
      ctx.body = present(known, state.videos.stepMs);
      return;
    }
    state.calls.videos += 1;
    const model = modelOf(ctx, 'video');
    if (!model) return;
    const body = bodyOf(ctx);
    const seconds = Number(body.seconds ?? 4);
    const durations = SANDBOX_MODELS.find((entry) => entry.id === model)!.durations!;
    if (!durations.includes(seconds)) return invalid(ctx, 'seconds', `seconds must be one of ${durations.join(', ')}.`);
    if (!sizeOf(body.size, sizesOf(model))) return invalid(ctx, 'size', `size must be one of ${sizesOf(model).join(', ')}.`);
    const failing = state.faults.take('videos', ['video_failed']);
    const job = newJob({
      model,
      prompt: String(body.prompt ?? ''),
      seconds,
      size: String(body.size ?? sizesOf(model)[0]),
      failure: failing ? { code: 'video_generation_failed', message: 'The video could not be generated; try another prompt.' } : null,
    });
    state.videos.jobs.set(job.id, job);
    if (key) state.videos.byIdempotencyKey.set(key, job.id);
    // Written before the answer: a restart right after it still knows the job.
    state.saveNow();
    ctx.body = present(job, state.videos.stepMs);
  });

  const jobOf = (ctx: Context) => {
    const job = state.videos.jobs.get(ctx.params.id!);
    if (job && !job.deleted) return job;
    providerError(ctx, 404, { message: `Video with id '${ctx.params.id}' not found.`, type: 'invalid_request_error', code: 'not_found' });
    return null;
  };

  // Newest first by default, a page after the id given, as OpenAI's cursor pages are.
  router.get(`${base}/videos`, authorised, (ctx) => {
    const limit = Math.min(Math.max(Number(ctx.query.limit ?? 20) || 20, 1), 100);
    const jobs = [...state.videos.jobs.values()].filter((job) => !job.deleted);
    if (ctx.query.order !== 'asc') jobs.reverse();
    const start = ctx.query.after ? jobs.findIndex((job) => job.id === ctx.query.after) + 1 : 0;
    const page = jobs.slice(start, start + limit).map((job) => present(job, state.videos.stepMs));
    ctx.body = {
      object: 'list',
      data: page,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
      has_more: start + limit < jobs.length,
    };
  });

  router.get(`${base}/videos/:id`, authorised, faulty('video_status'), (ctx) => {
    const job = jobOf(ctx);
    if (job) ctx.body = present(job, state.videos.stepMs);
  });

  router.delete(`${base}/videos/:id`, authorised, (ctx) => {
    const job = jobOf(ctx);
    if (!job) return;
    job.deleted = true;
    ctx.body = { id: job.id, object: 'video.deleted', deleted: true };
  });

  router.get(`${base}/videos/:id/content`, authorised, faulty('content'), async (ctx) => {
    const job = jobOf(ctx);
    if (!job) return;
    if (present(job, state.videos.stepMs).status !== 'completed') {
      return invalid(ctx, 'video_id', 'The video is not completed yet.');
    }
    if (state.faults.take('content', ['expired'])) {
      return providerError(ctx, 404, { message: 'The video content has expired.', type: 'invalid_request_error', code: 'video_expired' });
    }
    const corrupt = state.faults.take('content', ['corrupt']);
    ctx.type = 'video/mp4';
    ctx.body = corrupt ? randomBytes(4096) : await state.files.of(job);
  });
}
