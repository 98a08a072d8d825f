import { defineArea } from '../area.js';
import * as handlers from './handlers.js';

export const keys = defineArea({ name: 'keys', contractArea: 'API keys', handlers, tables: ['api_keys'] });
