import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { aiSettings } from './settings.js';
import { AiTaskWork } from './worker.js';

export const ai = defineArea({
  name: 'ai',
  contractArea: 'AI',
  handlers,
  tables: ['ai_tasks'],
  settings: aiSettings,
  workers: { ai: (services) => new AiTaskWork(services) },
  outstanding: {
    aiTasks: `SELECT count(*) FROM ai_tasks WHERE status IN ('queued', 'running')
      AND (next_attempt_at <= now() OR locked_until > now())`,
  },
});
