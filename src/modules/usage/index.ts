import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { usageSettings } from './settings.js';

export const usage = defineArea({ name: 'usage', contractArea: 'Usage', handlers, settings: usageSettings, tables: ['usage_counters'] });
