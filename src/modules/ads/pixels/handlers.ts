import { type Handler, principalOf } from '../../../http/handler.js';
import { writeKey } from '../../platform-writes/write-key.js';
import {
  createCustomConversion as createConversion,
  getCustomConversion as getConversion,
  listCustomConversions as listConversions,
} from './conversions.js';
import { sendPixelEvents as send } from './events.js';
import { createPixel as create, listPixels as list } from './pixels.js';

export const listPixels: Handler<'listPixels'> = async (request, services) => ({
  status: 200,
  body: await list(services, principalOf(request), request.query),
});

export const createPixel: Handler<'createPixel'> = async (request, services) => ({
  status: 201,
  body: await create(services, principalOf(request), request.body, writeKey(request, 'ad.pixel')),
});

export const sendPixelEvents: Handler<'sendPixelEvents'> = async (request, services) => ({
  status: 200,
  body: await send(services, principalOf(request), request.body),
});

export const listCustomConversions: Handler<'listCustomConversions'> = async (request, services) => ({
  status: 200,
  body: await listConversions(services, principalOf(request), request.query),
});

export const getCustomConversion: Handler<'getCustomConversion'> = async (request, services) => ({
  status: 200,
  body: await getConversion(services, principalOf(request), request.query.adAccountId, request.params.customConversionId),
});

export const createCustomConversion: Handler<'createCustomConversion'> = async (request, services) => ({
  status: 201,
  body: await createConversion(services, principalOf(request), request.body, writeKey(request, 'ad.customconversion')),
});
