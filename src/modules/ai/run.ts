import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import type OpenAI from 'openai';
import type { Services } from '../../services.js';
import { copyRule, fitCopy } from './copy-rules.js';
import { failed, isContentPolicy, type Outcome } from './outcome.js';
import type { TaskRow } from './rows.js';
import { type OfferedModel, registryOf } from './registry.js';
import { cropImage, download, mediaResult, referenceUpload, ResultUnusableError, storeResult } from './results.js';

/** What a kind's run needs: the task, its provider's client, and how long the next call may take. */
interface Run {
  services: Services;
  task: TaskRow;
  client: OpenAI;
  offered: OfferedModel;
  /** Milliseconds the next provider call may take: the request timeout, within the task's deadline. */
  timeout(): number;
}

type CopyInput = { prompt: string; platform?: string; tone?: string; language?: string; maxLength?: number; includeHashtags?: boolean };

/** The instructions every OpenAI-compatible chat model follows; one line per rule. */
function instructions(input: CopyInput, maxChars: number): string {
  return [
    'You write the text of a social media post. Answer with the text only.',
    input.platform ? `Platform: ${input.platform}.` : null,
    `Tone: ${input.tone ?? 'neutral'}.`,
    input.language ? `Language: ${input.language}.` : 'Language: the language of the request.',
    `Length: at most ${maxChars} characters, hashtags included.`,
    input.includeHashtags ? 'End with two to four relevant hashtags.' : 'Use no hashtags.',
  ]
    .filter(Boolean)
    .join('\n');
}

async function runCopy({ services, task, client, timeout }: Run): Promise<Outcome> {
  const input = task.input as CopyInput;
  const rule = copyRule(services, input.platform, input.maxLength);
  const completion = await client.chat.completions.create(
    {
      model: task.model,
      messages: [
        { role: 'system', content: instructions(input, rule.maxChars) },
        { role: 'user', content: input.prompt },
      ],
      n: task.plan.n ?? 1,
    },
    { timeout: timeout() },
  );
  const refused = completion.choices.find((choice) => choice.message.refusal || choice.finish_reason === 'content_filter');
  if (refused) return failed('content_policy', refused.message.refusal ?? 'The provider filtered the text under its content policy.');
  const variants = completion.choices.map((choice) => fitCopy((choice.message.content ?? '').trim(), rule)).filter(Boolean);
  if (variants.length === 0) throw new ResultUnusableError('The model answered no text.');
  return {
    kind: 'succeeded',
    result: { text: variants[0]!, variants, mediaId: null, url: null },
    usage: {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
      seconds: 0,
      images: 0,
    },
  };
}

async function runImage({ services, task, client, timeout }: Run): Promise<Outcome> {
  const input = task.input as { prompt: string; negativePrompt?: string; imageMediaId?: string };
  const prompt = input.negativePrompt ? `${input.prompt}\nAvoid: ${input.negativePrompt}` : input.prompt;
  const size = task.plan.size as OpenAI.ImageGenerateParams['size'];
  const response = input.imageMediaId
    ? await client.images.edit(
        { model: task.model, prompt, size, image: await referenceUpload(services, input.imageMediaId) },
        { timeout: timeout() },
      )
    : await client.images.generate({ model: task.model, prompt, size, n: 1 }, { timeout: timeout() });
  const item = response.data?.[0];
  let bytes: Buffer;
  if (item?.b64_json) bytes = Buffer.from(item.b64_json, 'base64');
  else if (item?.url) bytes = await download(item.url, timeout());
  else throw new ResultUnusableError('The provider answered no image.');
  if (task.plan.crop) bytes = await cropImage(bytes, task.plan.crop);
  const media = await storeResult(services, task, bytes, `${task.id}-image`);
  return {
    kind: 'succeeded',
    result: mediaResult(services, media),
    usage: { inputTokens: response.usage?.input_tokens ?? 0, outputTokens: response.usage?.output_tokens ?? 0, seconds: 0, images: 1 },
  };
}

async function runAudio({ services, task, client, timeout }: Run): Promise<Outcome> {
  const response = await client.audio.speech.create(
    {
      model: task.model,
      input: task.input.prompt,
      voice: task.plan.voice!,
      response_format: task.plan.format as 'mp3' | 'wav',
    },
    { timeout: timeout() },
  );
  const media = await storeResult(services, task, Buffer.from(await response.arrayBuffer()), `${task.id}.${task.plan.format}`);
  return {
    kind: 'succeeded',
    result: mediaResult(services, media),
    usage: { inputTokens: 0, outputTokens: 0, seconds: (media.durationMs ?? 0) / 1000, images: 0 },
  };
}

/**
 * A video is a job at the provider. The first turn creates it (with the task's id as its Idempotency-Key) and
 * commits its id before anything else; every later turn — in this worker or another after a crash — only looks
 * at that job, so a task never pays for two (a provider that honours Idempotency-Key also answers a create
 * repeated after a crash between the create and its commit with the same job). Until the job is done, the task
 * is looked at again after the poll.
 */
async function runVideo({ services, task, client, offered, timeout }: Run): Promise<Outcome> {
  const { videoPollMs } = services.config.ai;
  const input = task.input as { prompt: string; imageMediaId?: string };
  if (!task.providerJobId) {
    const job = await client.videos.create(
      {
        model: task.model,
        prompt: input.prompt,
        seconds: String(task.plan.seconds) as OpenAI.VideoSeconds,
        size: task.plan.size as OpenAI.VideoSize,
        ...(input.imageMediaId && offered.model.referenceImage
          ? { input_reference: await referenceUpload(services, input.imageMediaId) }
          : {}),
      },
      { timeout: timeout(), headers: { 'Idempotency-Key': task.id } },
    );
    const kept = await services
      .db('aiTasks')
      .where({ id: task.id, status: 'running' })
      .update({ providerJobId: job.id, progress: job.progress ?? 0 });
    // Cancelled while the job was being created: the job is not wanted either.
    if (kept === 0) await client.videos.delete(job.id, { timeout: timeout() });
    return { kind: 'poll', at: new Date(Date.now() + videoPollMs), progress: job.progress ?? 0 };
  }
  const job = await client.videos.retrieve(task.providerJobId, { timeout: timeout() });
  if (job.status === 'failed') {
    const code = job.error?.code;
    return failed(
      isContentPolicy(code) ? 'content_policy' : 'provider_error',
      job.error?.message ?? 'The provider could not make the video.',
    );
  }
  if (job.status !== 'completed') return { kind: 'poll', at: new Date(Date.now() + videoPollMs), progress: job.progress ?? null };
  const content = await client.videos.downloadContent(job.id, { variant: 'video' }, { timeout: timeout() });
  if (!content.body) throw new ResultUnusableError('The provider answered no video.');
  const media = await storeResult(services, task, Readable.fromWeb(content.body as ReadableStream), `${task.id}.mp4`);
  return {
    kind: 'succeeded',
    result: mediaResult(services, media),
    usage: { inputTokens: 0, outputTokens: 0, seconds: (media.durationMs ?? 0) / 1000, images: 0 },
  };
}

const RUNS: Record<TaskRow['kind'], (run: Run) => Promise<Outcome>> = { copy: runCopy, image: runImage, video: runVideo, audio: runAudio };

/** One turn of a task with its provider. Provider failures are thrown for `outcomeOf` to judge. */
export async function runTask(services: Services, task: TaskRow): Promise<Outcome> {
  const registry = registryOf(services);
  const offered = registry.configured(task.provider, task.model);
  if (!offered) return failed('provider_error', `The provider ${task.provider} or its model ${task.model} is no longer configured.`);
  const deadline = new Date(task.deadlineAt).getTime();
  const timeout = () => Math.max(1, Math.floor(Math.min(services.config.ai.requestTimeoutSeconds * 1000, deadline - Date.now())));
  return RUNS[task.kind]({ services, task, client: await registry.client(offered.provider), offered, timeout });
}
