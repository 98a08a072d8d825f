import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { mediaSettings } from './settings.js';

export const media = defineArea({ name: 'media', contractArea: 'Publishing', handlers, settings: mediaSettings, tables: ['media'] });
