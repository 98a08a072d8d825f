import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { OPERATIONS } from '../../generated/operations.js';
import { handlers, NOT_IMPLEMENTED, PARTLY_IMPLEMENTED } from '../../src/handlers.js';
import { readBundledContract } from '../../src/http/contract.js';

const SPECIFICATION = new URL('../../../shared/000_3fc486d0d81211ec.txt', import.meta.url);

/** The method + path pairs of the interface specification's endpoint tables, `:name` turned into `{name}`. */
function specifiedOperations(): string[] {
  const pairs: string[] = [];
  for (const line of readFileSync(SPECIFICATION, 'utf8').split('\n')) {
    const match = /^\| ((?:GET|POST|PATCH|DELETE|PUT)(?:, (?:GET|POST|PATCH|DELETE|PUT))*) \| (\/\S*) \|/.exec(line);
    if (!match) continue;
    const path = match[2]!.replace(/:([A-Za-z]+)/g, '{$1}');
    for (const method of match[1]!.split(', ')) pairs.push(`${method} ${path}`);
  }
  return pairs;
}

describe('the contract and the service', () => {
  const document = readBundledContract() as unknown as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  const inContract = OPERATIONS.map((op) => `${op.method} ${op.path}`);

  it('holds every operation of the interface specification (125)', () => {
    const specified = specifiedOperations();
    expect(specified).to.have.length(125);
    expect(inContract).to.include.members(specified);
  });

  it('has a handler for every operation and an operation for every handler', () => {
    expect(Object.keys(handlers).sort()).to.deep.equal(OPERATIONS.map((op) => op.operationId).sort());
  });

  it('declares 501 for exactly the operations that are not built yet, or built for some platforms only', () => {
    const declaring501 = OPERATIONS
      .filter((op) => '501' in document.paths[op.path]![op.method.toLowerCase()]!.responses)
      .map((op) => op.operationId);
    expect([...declaring501].sort()).to.deep.equal([...NOT_IMPLEMENTED, ...Object.keys(PARTLY_IMPLEMENTED)].sort());
  });
});
