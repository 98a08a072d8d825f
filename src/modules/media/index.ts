import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import * as tusHandlers from './tus-handlers.js';
import { tusOf } from './tus.js';
import { purgeUploads } from './uploads.js';
import { mediaSettings } from './settings.js';

export const media = defineArea({
  name: 'media',
  contractArea: 'Publishing',
  handlers: { ...handlers, ...tusHandlers },
  settings: mediaSettings,
  tables: ['media', 'media_uploads'],
  purge: async (services) => ({ mediaUploads: await purgeUploads(services.db, (await tusOf(services)).store) }),
});
