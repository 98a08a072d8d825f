import { expect } from 'chai';
import OpenAI from 'openai';
import { SANDBOX_AI_KEY } from '../../../src/sandbox/ai/catalogue.js';
import { sandboxForFile } from './sandbox.js';

describe('sandbox AI provider — through the openai client (6.49.0)', () => {
  const sandbox = sandboxForFile();
  const client = () => new OpenAI({ apiKey: SANDBOX_AI_KEY, baseURL: `${sandbox.url()}/ai/v1`, maxRetries: 0 });

  it('answers a chat completion, with an x-request-id, reading content given as parts', async () => {
    const { data, response } = await client()
      .chat.completions.create({
        model: 'sandbox-copy',
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'Length: at most 80 characters.' }] },
          { role: 'user', content: [{ type: 'text', text: 'Autumn menu launch' }] },
        ],
      })
      .withResponse();
    expect(response.headers.get('x-request-id')).to.match(/^req_/);
    const text = data.choices[0]!.message.content!;
    expect(text).to.not.include('[object Object]');
    expect(text.toLowerCase()).to.include('autumn');
    expect(data.usage!.total_tokens).to.be.greaterThan(0);
  });

  it('streams a chat completion as server-sent chunks ending [DONE], with the usage asked for', async () => {
    const stream = await client().chat.completions.create({
      model: 'sandbox-copy',
      messages: [{ role: 'user', content: 'Spring sale' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(chunks.length).to.be.greaterThan(2);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).to.equal(true);
    expect(text.toLowerCase()).to.include('spring');
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0]!.finish_reason).to.equal('stop');
    expect(chunks.at(-1)!.usage!.completion_tokens).to.be.greaterThan(0);
  });

  it('refuses an unknown key and an unknown model as OpenAI does', async () => {
    const wrongKey = new OpenAI({ apiKey: 'nope', baseURL: `${sandbox.url()}/ai/v1`, maxRetries: 0 });
    const unauthorised = await wrongKey.models.list().catch((error: unknown) => error);
    expect(unauthorised).to.be.instanceOf(OpenAI.AuthenticationError);
    const unknown = await client()
      .chat.completions.create({ model: 'gpt-nothing', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(unknown).to.be.instanceOf(OpenAI.NotFoundError);
    expect(unknown).to.include({ code: 'model_not_found', param: 'model' });
    expect((unknown as InstanceType<typeof OpenAI.APIError>).requestID).to.match(/^req_/);
  });

  it('makes an image and speech', async () => {
    const image = await client().images.generate({ model: 'sandbox-image', prompt: 'a lighthouse', size: '1024x1024', n: 1 });
    expect(Buffer.from(image.data![0]!.b64_json!, 'base64').subarray(1, 4).toString()).to.equal('PNG');
    const speech = await client().audio.speech.create({
      model: 'sandbox-speech',
      input: 'Hello there',
      voice: 'alloy',
      response_format: 'wav',
    });
    expect(
      Buffer.from(await speech.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).to.equal('RIFF');
  });

  it('creates, lists, reads and deletes a video job', async () => {
    const job = await client().videos.create({ model: 'sandbox-video', prompt: 'waves', seconds: '4', size: '720x1280' });
    expect(job).to.include({ object: 'video', status: 'queued' });
    const listed = [];
    for await (const video of client().videos.list({ limit: 10 })) listed.push(video.id);
    expect(listed).to.include(job.id);
    expect((await client().videos.retrieve(job.id)).id).to.equal(job.id);
    expect(await client().videos.delete(job.id)).to.include({ id: job.id, deleted: true });
    const gone = await client()
      .videos.retrieve(job.id)
      .catch((error: unknown) => error);
    expect(gone).to.be.instanceOf(OpenAI.NotFoundError);
  });
});
