import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { OPERATIONS } from '../../generated/operations.js';
import { readBundledContract } from '../../src/http/contract.js';
import { operationHandlers, partlyBuiltOperations, unbuiltOperations } from '../../src/modules/index.js';

/** The interface specification's endpoints (method and path), as data kept beside this test. */
function specifiedOperations(): string[] {
  return readFileSync(new URL('specified-operations.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'));
}

describe('the contract and the service', () => {
  const document = readBundledContract() as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  const inContract = OPERATIONS.map((op) => `${op.method} ${op.path}`);

  it('holds every operation of the interface specification (125)', () => {
    const specified = specifiedOperations();
    expect(specified).to.have.length(125);
    expect(new Set(specified).size).to.equal(125);
    expect(inContract).to.include.members(specified);
  });

  it('has a handler for every operation of the contract, and for nothing else', () => {
    expect(Object.keys(operationHandlers()).sort()).to.deep.equal(OPERATIONS.map((op) => op.operationId).sort());
  });

  it('declares 501 for exactly the operations no area has built, or built for some platforms only', () => {
    const declaring501 = OPERATIONS.filter((op) => '501' in document.paths[op.path]![op.method.toLowerCase()]!.responses).map(
      (op) => op.operationId,
    );
    expect([...declaring501].sort()).to.deep.equal([...unbuiltOperations(), ...Object.keys(partlyBuiltOperations())].sort());
  });

  it('answers 501 not_implemented from every operation no area has built', async () => {
    const handlers = operationHandlers();
    for (const operationId of unbuiltOperations()) {
      const answer = await handlers[operationId]!({ operationId } as never, {} as never).then(
        () => null,
        (error: unknown) => error,
      );
      expect(answer, operationId).to.include({ status: 501, code: 'not_implemented' });
    }
  });
});
