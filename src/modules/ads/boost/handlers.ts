import { type Handler, principalOf } from '../../../http/handler.js';
import { writeKey } from '../../platform-writes/write-key.js';
import { boostFailure, recordBoostRequest, waitForBoost } from './create.js';
import { findBoost, listBoosts as list, presentedBoost } from './records.js';
import { changeBoostStatus } from './status.js';

/**
 * The boost recorded, then waited for while the worker makes its steps: 201 once made, the refusal once rolled
 * back, 202 with the boost as it is when that takes longer than `answerWithinSeconds`.
 */
export const boostPost: Handler<'boostPost'> = async (request, services) => {
  const recorded = await recordBoostRequest(services, principalOf(request), request.body, writeKey(request, 'boost'));
  const boost = await waitForBoost(services.db, recorded, services.config.adBoosts.answerWithinSeconds);
  if (boost.status === 'failed') throw boostFailure(boost.error!);
  const headers = { Location: `/ads/boosts/${boost.id}` };
  const body = await presentedBoost(services.db, boost);
  return boost.status === 'active' || boost.status === 'paused' ? { status: 201, body, headers } : { status: 202, body, headers };
};

export const listBoosts: Handler<'listBoosts'> = async (request, services) => ({
  status: 200,
  body: await list(services.db, principalOf(request), request.query),
});

export const getBoost: Handler<'getBoost'> = async (request, services) => ({
  status: 200,
  body: await presentedBoost(services.db, await findBoost(services.db, principalOf(request), request.params.boostId)),
});

export const setBoostStatus: Handler<'setBoostStatus'> = async (request, services) => ({
  status: 200,
  body: await changeBoostStatus(services, principalOf(request), request.params.boostId, request.body.status),
});
