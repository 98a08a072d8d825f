import { expect } from 'chai';
import { readBundledContract } from '../../src/http/contract.js';

type Schema = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** The schema a local `$ref` points at. */
function resolve(document: Schema, ref: string): Schema {
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Schema)[key.replace(/~1/g, '/').replace(/~0/g, '~')], document) as Schema;
}

function describesObject(schema: Schema): boolean {
  const { type } = schema;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || 'properties' in schema;
}

/**
 * Unknown members are refused (none at all, or each validated by a schema: a map such as `metadata`), or the
 * object says it takes any (`additionalProperties: true`: a platform's own notification, which platforms extend).
 */
function closed(schema: Schema): boolean {
  const { additionalProperties, unevaluatedProperties } = schema;
  return (
    additionalProperties === false ||
    unevaluatedProperties === false ||
    typeof additionalProperties === 'object' ||
    additionalProperties === true
  );
}

const SUBSCHEMA_LISTS = ['allOf', 'oneOf', 'anyOf', 'prefixItems'] as const;
const SUBSCHEMAS = ['items', 'not', 'if', 'then', 'else', 'contains'] as const;

/**
 * Where, under `schema`, an object would take members it does not declare. The branches of allOf/oneOf/anyOf and
 * if/then/else are closed by their object's `unevaluatedProperties: false`, which sees every member they declare.
 */
function openObjects(document: Schema, schema: Schema, where: string, closedAbove: boolean, seen: Set<string>): string[] {
  const open: string[] = [];
  if (typeof schema.$ref === 'string') {
    const key = `${schema.$ref} ${closedAbove}`;
    if (!seen.has(key)) {
      seen.add(key);
      open.push(...openObjects(document, resolve(document, schema.$ref), schema.$ref, closedAbove, seen));
    }
  }
  if (describesObject(schema) && !closed(schema) && !closedAbove) open.push(where);
  const closesBranches = closedAbove || closed(schema);
  for (const [name, member] of Object.entries((schema.properties ?? {}) as Record<string, Schema | boolean>)) {
    if (typeof member === 'object') open.push(...openObjects(document, member, `${where}/properties/${name}`, false, seen));
  }
  if (typeof schema.additionalProperties === 'object') {
    open.push(...openObjects(document, schema.additionalProperties as Schema, `${where}/additionalProperties`, false, seen));
  }
  for (const keyword of SUBSCHEMA_LISTS) {
    for (const [index, branch] of ((schema[keyword] ?? []) as Schema[]).entries()) {
      open.push(...openObjects(document, branch, `${where}/${keyword}/${index}`, keyword !== 'prefixItems' && closesBranches, seen));
    }
  }
  for (const keyword of SUBSCHEMAS) {
    const inner = schema[keyword];
    const branch = keyword === 'if' || keyword === 'then' || keyword === 'else' || keyword === 'not';
    if (typeof inner === 'object' && inner !== null) {
      open.push(...openObjects(document, inner as Schema, `${where}/${keyword}`, branch && closesBranches, seen));
    }
  }
  return open;
}

describe('request bodies of the contract', () => {
  it('are closed: every object of every operation refuses members it does not declare, unless it says it takes any', () => {
    const document = readBundledContract() as unknown as Schema;
    const open: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Schema>)) {
      for (const method of METHODS) {
        const operation = item[method] as Schema | undefined;
        let body = operation?.requestBody as Schema | undefined;
        if (!body) continue;
        if (typeof body.$ref === 'string') body = resolve(document, body.$ref);
        for (const [mediaType, content] of Object.entries((body.content ?? {}) as Record<string, Schema>)) {
          if (!content.schema) continue;
          const found = openObjects(document, content.schema as Schema, 'schema', false, new Set());
          open.push(...found.map((where) => `${method.toUpperCase()} ${path} (${mediaType}): ${where}`));
        }
      }
    }
    expect([...new Set(open)]).to.deep.equal([]);
  });
});
