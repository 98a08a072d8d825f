import { randomBytes } from 'node:crypto';
import { makeVideo } from './make.js';

export interface VideoJob {
  id: string;
  model: string;
  prompt: string;
  seconds: number;
  size: string;
  createdAt: number;
  /** Set when the job was armed to fail: what the provider reports. */
  failure: { code: string; message: string } | null;
  deleted: boolean;
}

/** What the sandbox keeps of its video jobs across restarts: a job started before a restart finishes after it. */
export interface VideoState {
  jobs: Map<string, VideoJob>;
  /** The job each `Idempotency-Key` created: a repeated create answers the same job. */
  byIdempotencyKey: Map<string, string>;
  /** How long a job spends queued; it then runs twice as long. */
  stepMs: number;
}

export function emptyVideoState(): VideoState {
  return { jobs: new Map(), byIdempotencyKey: new Map(), stepMs: 1500 };
}

/** The job as `GET /v1/videos/{id}` shows it: its status and progress follow from the time since it was made. */
export function present(job: VideoJob, stepMs: number, now = Date.now()) {
  const elapsed = now - job.createdAt;
  const running = Math.min(1, Math.max(0, (elapsed - stepMs) / (2 * stepMs)));
  const done = elapsed >= 3 * stepMs;
  const status = done ? (job.failure ? 'failed' : 'completed') : elapsed < stepMs ? 'queued' : 'in_progress';
  return {
    id: job.id,
    object: 'video',
    model: job.model,
    status,
    progress: status === 'completed' ? 100 : Math.floor(running * 99),
    created_at: Math.floor(job.createdAt / 1000),
    completed_at: done ? Math.floor((job.createdAt + 3 * stepMs) / 1000) : null,
    expires_at: done ? Math.floor((job.createdAt + 3 * stepMs) / 1000) + 3600 : null,
    prompt: job.prompt,
    seconds: String(job.seconds),
    size: job.size,
    remixed_from_video_id: null,
    error: done && job.failure ? job.failure : null,
  };
}

export function newJob(fields: Omit<VideoJob, 'id' | 'createdAt' | 'deleted'>): VideoJob {
  return { ...fields, id: `video_${randomBytes(12).toString('hex')}`, createdAt: Date.now(), deleted: false };
}

/** The MP4 of each completed job, made once per sandbox process (a restart makes it again, the same). */
export class VideoFiles {
  private readonly made = new Map<string, Promise<Buffer>>();

  of(job: VideoJob): Promise<Buffer> {
    let file = this.made.get(job.id);
    if (!file) {
      const [width, height] = job.size.split('x').map(Number) as [number, number];
      file = makeVideo(width, height, job.seconds);
      file.catch(() => this.made.delete(job.id));
      this.made.set(job.id, file);
    }
    return file;
  }
}
