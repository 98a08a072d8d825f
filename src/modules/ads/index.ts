import { defineArea } from '../area.js';
import * as handlers from './handlers.js';

/**
 * Advertising on connected ad accounts: the campaign tree, creatives, insights, targeting and the ad.* events.
 * Each part lives in its own folder and adds its handlers to `handlers.ts`.
 */
export const ads = defineArea({ name: 'ads', contractArea: 'Ads', handlers, tables: [] });
