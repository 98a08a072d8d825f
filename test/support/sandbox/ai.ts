import type { TestApp } from '../app.js';
import { People } from './people.js';

export type AiFault = 'rate_limit' | 'content_policy' | 'unknown_model' | 'server_error' | 'hang' | 'video_failed' | 'expired' | 'corrupt';
export type AiEndpoint = 'chat' | 'images' | 'speech' | 'videos' | 'video_status' | 'content' | 'any';

export interface AiCalls {
  chat: number;
  images: number;
  speech: number;
  videos: number;
  videoJobs: Array<{ id: string; status: string; progress: number; model: string; deleted: boolean }>;
}

/** The sandbox's generative-AI provider (`/_sandbox/ai`): its faults, its video jobs' pace, what it was asked. */
export class AiProvider extends People {
  constructor(app: () => TestApp) {
    super(app, 'ai');
  }

  /** The next `times` requests to `endpoint` meet `fault` (a 429 carries `retry-after: retryAfterSeconds`). */
  failNext(fault: AiFault, options: { endpoint?: AiEndpoint; times?: number; retryAfterSeconds?: number } = {}): Promise<unknown> {
    return this.post('faults', { fault, ...options });
  }

  /** Forgets faults armed and not met yet. */
  reset(): Promise<unknown> {
    return this.post('reset');
  }

  /** How long a video job stays queued (it then runs twice as long). */
  configure(settings: { videoStepMs: number }): Promise<unknown> {
    return this.post('configure', settings);
  }

  /** What the provider was asked for: calls by endpoint, and every video job. */
  calls(): Promise<AiCalls> {
    return this.get('calls');
  }
}
