import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { receiveMessage } from './inbound.js';

export const messaging = defineArea({ name: 'messaging', contractArea: 'Messaging', handlers, incoming: { message: receiveMessage } });
