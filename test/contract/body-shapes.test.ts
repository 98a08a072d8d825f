import { expect } from 'chai';
import { readBundledContract } from '../../src/http/contract.js';

type Schema = Record<string, unknown>;

/**
 * A branch that only says which members must be present (`required: [publishNow]`), as "exactly one of" and
 * "at least one of" rules are written; it may name itself (`title`) and declare those members (`true`).
 */
function picksMembers(branch: unknown): branch is Schema & { required: string[] } {
  if (typeof branch !== 'object' || branch === null || !Array.isArray((branch as Schema).required)) return false;
  const { required: _required, title: _title, description: _description, properties, ...rest } = branch as Schema;
  return Object.keys(rest).length === 0 && Object.values((properties ?? {}) as Schema).every((member) => member === true);
}

/** Every schema object of the document with where it is, `$ref`s left as they are. */
function* schemasOf(node: unknown, where: string): Generator<[string, Schema]> {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) yield* schemasOf(item, `${where}/${index}`);
    return;
  }
  yield [where, node as Schema];
  for (const [key, value] of Object.entries(node)) yield* schemasOf(value, `${where}/${key}`);
}

/**
 * Redoc draws each branch of a oneOf/anyOf as a variant of the object, and generators make each a member of a
 * union; a branch that only picks members is drawn empty and typed `unknown` unless it is shaped for them.
 */
describe('request bodies show their fields in /docs and in generated clients', () => {
  const document = readBundledContract();
  const schemas = [...schemasOf(document.components?.schemas, '#/components/schemas'), ...schemasOf(document.paths, '#/paths')];

  it('never hides a choice of members inside allOf (Redoc then draws only empty variants)', () => {
    const hidden = schemas.filter(
      ([, schema]) =>
        Array.isArray(schema.allOf) &&
        schema.allOf.some((member: Schema) =>
          ['oneOf', 'anyOf'].some((keyword) => Array.isArray(member[keyword]) && (member[keyword] as unknown[]).every(picksMembers)),
        ),
    );
    expect(hidden.map(([where]) => where)).to.deep.equal([]);
  });

  it('writes "at least one of" as if/then, not anyOf (generators union the branches with the object: unknown)', () => {
    const anyOfPickers = schemas.filter(([, schema]) => Array.isArray(schema.anyOf) && schema.anyOf.every(picksMembers));
    expect(anyOfPickers.map(([where]) => where)).to.deep.equal([]);
  });

  it('names each "one of these members" branch and declares the members it requires', () => {
    const unnamed = schemas.flatMap(([where, schema]) =>
      (Array.isArray(schema.oneOf) && schema.oneOf.every(picksMembers) ? schema.oneOf : [])
        .filter(
          (branch: Schema & { required: string[] }) =>
            typeof branch.title !== 'string' ||
            branch.required.some((member) => (branch.properties as Schema | undefined)?.[member] !== true),
        )
        .map((branch: Schema) => `${where}: ${JSON.stringify(branch)}`),
    );
    expect(unnamed).to.deep.equal([]);
  });
});
