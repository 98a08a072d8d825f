import { defineArea } from '../area.js';
import * as handlers from './handlers.js';

/** Events on connected calendar accounts, read and written live on the platform (the service keeps no copy). */
export const calendar = defineArea({ name: 'calendar', contractArea: 'Calendar', handlers, tables: [] });
