import { type Handler, principalOf, type Reply, type Request } from '../../http/handler.js';
import type { Services } from '../../services.js';
import { presentModels } from './catalogue.js';
import { type AiTask, FINISHED, presentTask } from './present.js';
import type { TaskRow } from './rows.js';
import type { AiKind } from './settings.js';
import { cancelTask, createTask, findTask, listTasks, preferredWait, waitForTask } from './tasks.js';

type GenerateOp = 'generateCopy' | 'generateImage' | 'generateVideo' | 'generateAudio';

/** The task as answered: held up to `Prefer: wait=N` until it finishes; `finished` says whether it did within a wait. */
async function afterWait(request: Request<GenerateOp | 'getGeneration'>, services: Services, row: TaskRow) {
  const wait = preferredWait(request.koa.get('Prefer') || undefined, services.config.ai.maxWaitSeconds);
  if (wait === null) return { body: presentTask(row), finished: false, headers: undefined };
  const current = await waitForTask(services.db, row, wait);
  return { body: presentTask(current), finished: FINISHED.includes(current.status), headers: { 'Preference-Applied': `wait=${wait}` } };
}

function generate<Op extends GenerateOp>(kind: AiKind): Handler<Op> {
  return (async (request: Request<Op>, services: Services) => {
    const row = await createTask(services, principalOf(request), kind, request.body as AiTask['input'] & { prompt: string });
    const { body, finished, headers } = await afterWait(request, services, row);
    return { status: finished ? 200 : 202, body, ...(headers ? { headers } : {}) };
  }) as unknown as Handler<Op>;
}

export const generateCopy = generate<'generateCopy'>('copy');
export const generateImage = generate<'generateImage'>('image');
export const generateVideo = generate<'generateVideo'>('video');
export const generateAudio = generate<'generateAudio'>('audio');

export const getGeneration: Handler<'getGeneration'> = async (request, services): Promise<Reply<'getGeneration'>> => {
  const row = await findTask(services.db, principalOf(request), request.params.taskId);
  const { body, headers } = await afterWait(request, services, row);
  return { status: 200, body, ...(headers ? { headers } : {}) };
};

export const cancelGeneration: Handler<'cancelGeneration'> = async (request, services) => ({
  status: 200,
  body: presentTask(await cancelTask(services, principalOf(request), request.params.taskId)),
});

export const listGenerations: Handler<'listGenerations'> = async (request, { db }) => ({
  status: 200,
  body: await listTasks(db, principalOf(request), request.query ?? {}),
});

export const listAiModels: Handler<'listAiModels'> = async (request, services) => ({
  status: 200,
  body: await presentModels(services, request.query?.kind),
});
