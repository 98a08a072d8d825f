import type { components } from '../../../generated/api.js';
import type { Services } from '../../services.js';

type Health = components['schemas']['Health'];
type Check = components['schemas']['HealthCheck'];

const DATABASE_TIMEOUT_MS = 2000;

async function checkDatabase(services: Services): Promise<Check> {
  const started = performance.now();
  try {
    await Promise.race([
      services.db.raw('select 1'),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no answer in ${DATABASE_TIMEOUT_MS} ms`)), DATABASE_TIMEOUT_MS).unref(),
      ),
    ]);
    return { status: 'ok', latencyMs: round(performance.now() - started), detail: null };
  } catch (error) {
    return { status: 'failing', latencyMs: round(performance.now() - started), detail: (error as Error).message };
  }
}

function checkScheduler(services: Services): Check {
  if (services.config.role === 'api') return { status: 'disabled', latencyMs: null, detail: null };
  return services.scheduler.isProcessing()
    ? { status: 'ok', latencyMs: null, detail: null }
    : { status: 'failing', latencyMs: null, detail: 'the scheduler is not running' };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

export async function checkHealth(services: Services): Promise<Health> {
  const database = await checkDatabase(services);
  const scheduler = checkScheduler(services);
  const ok = database.status === 'ok' && scheduler.status !== 'failing';
  return {
    status: ok ? 'ok' : 'degraded',
    version: services.config.version,
    uptimeSeconds: Math.floor((Date.now() - services.startedAt) / 1000),
    checks: { database, scheduler },
  };
}
