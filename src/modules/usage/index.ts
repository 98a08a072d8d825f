import { defineArea } from '../area.js';
import * as handlers from './handlers.js';

export const usage = defineArea({ name: 'usage', contractArea: 'Usage', handlers });
