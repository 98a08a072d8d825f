import { expect } from 'chai';
import type { Contract } from '../../src/http/contract.js';

/**
 * Every response a test receives is checked against the contract: the status must be declared for the
 * operation, the content type must be one it declares, and a JSON body must match its schema.
 */
export function assertMatchesContract(
  contract: Contract,
  method: string,
  path: string,
  response: {
    status: number;
    contentType: string | null;
    body: unknown;
  },
): void {
  const operation = contract.match(method, path);
  if (!operation) {
    // Unknown routes are answered by the router, not an operation; they must still be problems.
    expect(response.contentType, `${method} ${path}`).to.match(/^application\/problem\+json/);
    return;
  }
  const where = `${operation.operationId} answered ${response.status}`;
  const declared = (operation.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
  const spec = declared[String(response.status)];
  expect(spec, `${where}, a status the contract does not declare (body: ${JSON.stringify(response.body)?.slice(0, 300)})`).to.exist;
  const mediaTypes = Object.keys(spec?.content ?? {});
  if (mediaTypes.length === 0) {
    expect(response.body, `${where} with a body the contract does not declare`).to.satisfy((b: unknown) => b === undefined || b === '');
    return;
  }
  const type = (response.contentType ?? '').split(';')[0]!.trim();
  // A declared `image/*` covers every image type.
  const declaredType = mediaTypes.find(
    (declared) => declared === type || (declared.endsWith('/*') && type.startsWith(declared.slice(0, -1))),
  );
  expect(declaredType, `${where} with Content-Type ${type}, not one of ${mediaTypes.join(', ')}`).to.exist;
  if (type.endsWith('json')) {
    const result = contract.validator.validateResponse(response.body, operation, response.status);
    expect(result.errors ?? [], `${where} with a body that breaks the contract: ${JSON.stringify(result.errors)}`).to.deep.equal([]);
  }
}
