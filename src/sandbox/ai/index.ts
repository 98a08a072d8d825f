import type Router from '@koa/router';
import type { MountedSandbox, SandboxPart, StoredState } from '../sandbox-platform.js';
import { AI_CONTROLS } from './controls.js';
import { sandboxAiProvider } from './catalogue.js';
import { ENDPOINTS, type Endpoint, type Fault, FAULTS, FaultQueue } from './faults.js';
import { mountProvider, type ProviderState } from './provider.js';
import { emptyVideoState, present, VideoFiles, type VideoState } from './videos.js';

/**
 * The sandbox's generative-AI provider: the OpenAI-compatible HTTP API under `/ai/v1` (the service's only provider
 * when its operator configured none), and its controls under `/_sandbox/ai`: faults for the next requests, the
 * video jobs' pace, and what it was asked for. Its video jobs survive a restart.
 */
export const aiSandbox: SandboxPart = { key: 'ai', mount: mountAiProvider, controls: AI_CONTROLS };

function mountAiProvider(router: Router, sandboxUrl: string, stored: StoredState): MountedSandbox {
  const state: ProviderState = {
    faults: new FaultQueue(),
    videos: { ...emptyVideoState(), ...(stored.restored as Partial<VideoState> | undefined) },
    files: new VideoFiles(),
    imageFiles: new Map(),
    calls: { chat: 0, images: 0, speech: 0, videos: 0 },
    saveNow: () => stored.saveNow(),
  };
  mountProvider(router, sandboxUrl, state);

  router.post('/_sandbox/ai/faults', (ctx) => {
    const body = (ctx.request.body ?? {}) as { fault?: Fault; endpoint?: Endpoint; times?: number; retryAfterSeconds?: number };
    if (!body.fault || !FAULTS.includes(body.fault) || (body.endpoint && !ENDPOINTS.includes(body.endpoint))) {
      ctx.status = 400;
      ctx.body = { error: `fault must be one of ${FAULTS.join(', ')}; endpoint one of ${ENDPOINTS.join(', ')}` };
      return;
    }
    state.faults.arm(body.fault, body.endpoint ?? 'any', body.times ?? 1, body.retryAfterSeconds ?? 1);
    ctx.body = { armed: body };
  });

  router.post('/_sandbox/ai/reset', (ctx) => {
    state.faults.clear();
    ctx.body = { reset: true };
  });

  router.post('/_sandbox/ai/configure', (ctx) => {
    const { videoStepMs } = (ctx.request.body ?? {}) as { videoStepMs?: number };
    if (typeof videoStepMs === 'number' && videoStepMs >= 0) state.videos.stepMs = videoStepMs;
    ctx.body = { videoStepMs: state.videos.stepMs };
  });

  router.get('/_sandbox/ai/calls', (ctx) => {
    ctx.body = {
      ...state.calls,
      videoJobs: [...state.videos.jobs.values()].map((job) => ({ ...present(job, state.videos.stepMs), deleted: job.deleted })),
    };
  });

  return {
    close: () => state.faults.close(),
    state: () => state.videos,
    standIn: (config) =>
      config.ai.providers.length > 0 ? config : { ...config, ai: { ...config.ai, providers: [sandboxAiProvider(sandboxUrl)] } },
  };
}
