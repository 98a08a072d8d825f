import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';

/** A message's content as OpenAI takes it: a string, or parts of which the text ones are read. */
export type MessageContent = string | Array<{ type?: string; text?: string }> | null | undefined;

export function textOf(content: MessageContent): string {
  if (typeof content === 'string') return content;
  return (content ?? [])
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

export interface Completion {
  model: string;
  texts: string[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** The answer as one `chat.completion` body. */
export function completionBody({ model, texts, usage }: Completion) {
  return {
    id: `chatcmpl-${randomBytes(10).toString('hex')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: texts.map((content, index) => ({
      index,
      message: { role: 'assistant', content, refusal: null },
      finish_reason: 'stop',
      logprobs: null,
    })),
    usage,
  };
}

/** Words of a text, each with the space before it: the pieces a stream sends. */
function piecesOf(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

/**
 * The answer as OpenAI streams it (`stream: true`): `text/event-stream` chunks of `chat.completion.chunk`, the
 * role first, the text a word at a time, the finish reason, the usage last when `stream_options.include_usage`
 * asks for it, and `data: [DONE]`.
 */
export function streamCompletion(ctx: Context, completion: Completion, includeUsage: boolean): void {
  const head = {
    id: `chatcmpl-${randomBytes(10).toString('hex')}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: completion.model,
  };
  const chunk = (choices: unknown[], usage: Completion['usage'] | null = null) =>
    `data: ${JSON.stringify({ ...head, choices, usage })}\n\n`;
  const events = completion.texts.flatMap((text, index) => [
    chunk([{ index, delta: { role: 'assistant', content: '', refusal: null }, finish_reason: null, logprobs: null }]),
    ...piecesOf(text).map((content) => chunk([{ index, delta: { content }, finish_reason: null, logprobs: null }])),
    chunk([{ index, delta: {}, finish_reason: 'stop', logprobs: null }]),
  ]);
  if (includeUsage) events.push(chunk([], completion.usage));
  events.push('data: [DONE]\n\n');
  const body = new PassThrough();
  ctx.type = 'text/event-stream';
  ctx.set('cache-control', 'no-cache');
  ctx.body = body;
  for (const event of events) body.write(event);
  body.end();
}
