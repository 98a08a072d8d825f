import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { aiSettings } from './settings.js';
import { AiWorker } from './worker.js';

export const ai = defineArea({
  name: 'ai',
  contractArea: 'AI',
  handlers,
  settings: aiSettings,
  workers: { ai: (services, databaseUrl) => new AiWorker(services, databaseUrl) },
});
