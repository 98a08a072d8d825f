import { expect } from 'chai';
import { Contract, readBundledContract } from '../../src/http/contract.js';
import { fieldErrors } from '../../src/http/field-errors.js';

type Schema = Record<string, unknown>;

/**
 * Members that name or title something for people to read and may not be empty (`minLength`); a value of only
 * spaces would show as nothing just the same. (An optional text that may be empty, such as a video's title, may
 * be blank too.)
 */
const NAMES = new Set(['name', 'title', 'organizationName', 'summary']);
const METHODS = ['put', 'post', 'patch'] as const;

/** The schema a local `$ref` points at. */
function resolve(document: Schema, ref: string): Schema {
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Schema)[key.replace(/~1/g, '/').replace(/~0/g, '~')], document) as Schema;
}

/** Every string member named as in NAMES under a request body, with where it is declared. */
function namesUnder(document: Schema, node: unknown, where: string, seen: Set<unknown>, found: Map<string, Schema>): void {
  if (typeof node !== 'object' || node === null || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) return node.forEach((item, index) => namesUnder(document, item, `${where}/${index}`, seen, found));
  const schema = node as Schema;
  if (typeof schema.$ref === 'string') return namesUnder(document, resolve(document, schema.$ref), schema.$ref, seen, found);
  for (const [member, declared] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const type = declared.type;
    const text = type === 'string' || (Array.isArray(type) && type.includes('string'));
    if (NAMES.has(member) && text && Number(declared.minLength ?? 0) >= 1) found.set(`${where}/properties/${member}`, declared);
  }
  for (const [key, value] of Object.entries(schema))
    if (key !== 'examples' && key !== 'example') namesUnder(document, value, `${where}/${key}`, seen, found);
}

describe('names and titles meant for people', () => {
  const document = readBundledContract() as unknown as Schema;

  it('refuse a value of only spaces in the contract itself (pattern \\S), so that generated clients know it too', () => {
    const found = new Map<string, Schema>();
    const seen = new Set<unknown>();
    for (const [path, item] of Object.entries(document.paths as Record<string, Schema>)) {
      for (const method of METHODS) {
        const body = (item[method] as Schema | undefined)?.requestBody;
        if (body) namesUnder(document, body, `${method.toUpperCase()} ${path}`, seen, found);
      }
    }
    expect(found.size).to.be.greaterThan(25);
    const open = [...found].filter(([, schema]) => schema.pattern !== '\\S').map(([where]) => where);
    expect(open).to.deep.equal([]);
  });

  it('say what to fix when a name is only spaces', async () => {
    const contract = await Contract.load();
    const operation = contract.match('POST', '/profiles')!;
    const result = contract.validator.validateRequest(
      { method: 'POST', path: '/profiles', headers: { 'content-type': 'application/json' }, query: {}, body: { name: '   ' } },
      operation,
    );
    expect(fieldErrors(result.errors ?? [])).to.deep.equal([
      { path: 'body/name', code: 'pattern', message: 'is only spaces; write something a person can read' },
    ]);
  });
});
