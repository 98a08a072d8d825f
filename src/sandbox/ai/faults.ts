import type { Context } from 'koa';

/** The provider's endpoints a fault can be aimed at. */
export const ENDPOINTS = ['chat', 'images', 'speech', 'videos', 'video_status', 'content', 'any'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

export const FAULTS = [
  'rate_limit',
  'content_policy',
  'unknown_model',
  'server_error',
  'hang',
  'video_failed',
  'expired',
  'corrupt',
] as const;
export type Fault = (typeof FAULTS)[number];

interface Armed {
  fault: Fault;
  endpoint: Endpoint;
  remaining: number;
  retryAfterSeconds: number;
}

/** OpenAI's error body: `{error: {message, type, param, code}}`. */
export function providerError(
  ctx: Context,
  status: number,
  error: { message: string; type: string; code: string | null; param?: string | null },
) {
  ctx.status = status;
  ctx.body = { error: { param: null, ...error } };
}

/** Faults the next requests meet, armed by the sandbox's control, in the order they were armed. */
export class FaultQueue {
  private armed: Armed[] = [];
  /** Requests held open by `hang`, released when the sandbox closes. */
  private readonly hanging = new Set<() => void>();

  arm(fault: Fault, endpoint: Endpoint, times: number, retryAfterSeconds: number): void {
    this.armed.push({ fault, endpoint, remaining: times, retryAfterSeconds });
  }

  clear(): void {
    this.armed = [];
  }

  /** The fault this request meets, if one is armed for its endpoint (and of the kinds asked about). */
  take(endpoint: Endpoint, kinds: readonly Fault[]): Armed | undefined {
    const armed = this.armed.find((entry) => (entry.endpoint === endpoint || entry.endpoint === 'any') && kinds.includes(entry.fault));
    if (!armed) return undefined;
    armed.remaining -= 1;
    if (armed.remaining <= 0) this.armed = this.armed.filter((entry) => entry !== armed);
    return armed;
  }

  /**
   * Answers the request the way a provider fails (`true`), or leaves it alone: a 429 with `retry-after`, a 500,
   * a model the provider does not know, a content-policy refusal, or no answer at all until the caller gives up.
   */
  async apply(ctx: Context, endpoint: Endpoint, model: string | undefined): Promise<boolean> {
    const armed = this.take(endpoint, ['rate_limit', 'server_error', 'unknown_model', 'content_policy', 'hang']);
    if (!armed) return false;
    switch (armed.fault) {
      case 'rate_limit':
        ctx.set('retry-after', String(armed.retryAfterSeconds));
        providerError(ctx, 429, {
          message: 'Rate limit reached for requests. Please try again later.',
          type: 'requests',
          code: 'rate_limit_exceeded',
        });
        return true;
      case 'server_error':
        providerError(ctx, 500, { message: 'The server had an error while processing your request.', type: 'server_error', code: null });
        return true;
      case 'unknown_model':
        providerError(ctx, 404, {
          message: `The model \`${model ?? ''}\` does not exist or you do not have access to it.`,
          type: 'invalid_request_error',
          code: 'model_not_found',
          param: 'model',
        });
        return true;
      case 'content_policy':
        providerError(ctx, 400, {
          message: 'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed.',
          type: endpoint === 'images' ? 'image_generation_user_error' : 'invalid_request_error',
          code: endpoint === 'images' ? 'moderation_blocked' : 'content_policy_violation',
          param: 'prompt',
        });
        return true;
      default:
        await new Promise<void>((resolve) => {
          const release = () => {
            this.hanging.delete(release);
            resolve();
          };
          this.hanging.add(release);
          ctx.req.once('close', release);
        });
        ctx.respond = false;
        return true;
    }
  }

  close(): void {
    for (const release of [...this.hanging]) release();
  }
}
