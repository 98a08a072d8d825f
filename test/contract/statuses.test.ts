import { expect } from 'chai';
import type { Operation } from 'openapi-backend';
import { Contract } from '../../src/http/contract.js';
import { requirementOf } from '../../src/http/authentication.js';
import { isStreamed } from '../../src/http/body.js';

interface Parameter {
  in: string;
  name: string;
  schema?: { pattern?: string };
}

/**
 * The statuses the request pipeline itself can answer for an operation, whatever its handler does: the
 * contract's validation, the body parser, authentication, the rate limits, idempotency and the one place that
 * decides which profiles a list shows.
 */
function pipelineStatuses(operation: Operation, contract: Contract): Record<string, string> {
  const parameters = (operation.parameters ?? []) as Parameter[];
  const requirement = requirementOf(operation.security, contract.document);
  const statuses: Record<string, string> = { 429: 'a rate limit (per key, session or client address)' };
  if (parameters.length > 0 || operation.requestBody) statuses[400] = "the contract's validation";
  // A streamed body (`x-streamed-body`) is read line by line by its handler, with no size limit.
  if (operation.requestBody && !isStreamed(operation)) statuses[413] = 'the body size limit';
  if (operation.requestBody) statuses[415] = 'a body of another media type';
  if (requirement !== 'public') statuses[401] = 'authentication';
  if (requirement === 'session') statuses[403] = 'an API key on a session-only route';
  if (requirement !== 'public' && operation.method === 'post') {
    statuses[409] = 'an Idempotency-Key still in use';
    statuses[422] = 'an Idempotency-Key used for another request';
  }
  if (parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'profileId')) {
    statuses[404] = 'a profileId of another owner';
  }
  return statuses;
}

describe('the contract declares every status the service can answer', () => {
  let contract: Contract;
  before(async () => {
    contract = await Contract.load();
  });

  it('every operation declares, with a problem+json body, each status the request pipeline can answer for it', () => {
    const missing: string[] = [];
    for (const operation of contract.operations) {
      const declared = (operation.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
      for (const [status, cause] of Object.entries(pipelineStatuses(operation, contract))) {
        const response = declared[status];
        if (!response?.content?.['application/problem+json']) missing.push(`${operation.operationId} ${status} (${cause})`);
      }
    }
    expect(missing).to.deep.equal([]);
  });

  it('lists the answers given before any route is known among the problem codes', () => {
    const codes = (contract.document.components?.schemas?.ErrorCode as { enum: string[] }).enum;
    expect(codes).to.include.members([
      'route_not_found',
      'method_not_allowed',
      'headers_too_large',
      'malformed_request',
      'request_timeout',
    ]);
  });
});
