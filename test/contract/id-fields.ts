import type { Document } from 'openapi-backend';
import { OPERATIONS } from '../../generated/operations.js';
import { requirementOf } from '../../src/http/authentication.js';
import { readBundledContract } from '../../src/http/contract.js';

/** One of our ids in a request: where it goes, and its kind (the id's prefix, `media` for `media_…`). */
export interface IdField {
  in: 'path' | 'query' | 'body';
  /** A parameter's name, or the member path in the body (`image.mediaId`; `*` an array's items). */
  name: string;
  kind: string;
  /** A parameter the request must carry (a body member is set only when it is the one tried). */
  required: boolean;
}

/** An operation as the contract states it, reduced to what a request for it needs. */
export interface ContractOperation {
  operationId: string;
  method: string;
  path: string;
  requirement: ReturnType<typeof requirementOf>;
  idFields: IdField[];
  /** Values of the other parameters a request must or may carry: each one's example, else its first value. */
  parameters: Array<{ in: string; name: string; required: boolean; value: string }>;
  /** The JSON request bodies the contract shows (its `example` and `examples`). */
  bodies: unknown[];
}

interface Schema {
  $ref?: string;
  pattern?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
}

/**
 * Our ids' pattern (`^media_[0-9a-z]{26}$`), and the platforms' ids the contract also checks (`^act_[0-9]+$`); a
 * member that takes ids of several kinds (`^(acc|adacc)_…`) is tried with the first.
 */
const ID_PATTERN = /^\^\(?([a-z]+)[_|]/;

function resolved<T extends object>(document: Document, value: T | { $ref: string }): T {
  let current = value as T & { $ref?: string };
  while (current.$ref) {
    const target = current.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], document) as T & { $ref?: string };
    const { $ref: _, ...rest } = current;
    current = { ...target, ...rest } as T & { $ref?: string };
  }
  return current;
}

/** Every member of a schema (nested, in arrays, in each branch of a choice) whose value is one of our ids. */
function idMembers(document: Document, schema: Schema, path: string[], found: Map<string, string>): void {
  const node = resolved(document, schema);
  const kind = node.pattern && ID_PATTERN.exec(node.pattern)?.[1];
  if (kind) {
    found.set(path.join('.'), kind);
    return;
  }
  for (const branch of [...(node.allOf ?? []), ...(node.oneOf ?? []), ...(node.anyOf ?? [])]) idMembers(document, branch, path, found);
  for (const [name, member] of Object.entries(node.properties ?? {})) idMembers(document, member, [...path, name], found);
  if (node.items) idMembers(document, node.items, [...path, '*'], found);
}

/** A value a parameter takes: its example, else its first allowed or default value. */
function sampleOf(parameter: { example?: unknown; schema?: Schema }, document: Document): string {
  const schema = parameter.schema ? resolved(document, parameter.schema) : {};
  return String(parameter.example ?? schema.example ?? schema.enum?.[0] ?? schema.default ?? 'x');
}

/** The operations of the bundled contract (generated/openapi.json), with the ids each request names. */
export function contractOperations(): ContractOperation[] {
  const document = readBundledContract();
  return OPERATIONS.map(({ operationId, method, path }) => {
    const item = document.paths![path] as Record<string, unknown> & { parameters?: unknown[] };
    const operation = item[method.toLowerCase()] as {
      parameters?: unknown[];
      security?: unknown;
      requestBody?: { content: Record<string, { schema: Schema; example?: unknown; examples?: Record<string, { value: unknown }> }> };
    };
    const idFields: IdField[] = [];
    const parameters: ContractOperation['parameters'] = [];
    for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
      const parameter = resolved(document, raw as { in: string; name: string; required?: boolean; schema?: Schema; example?: unknown });
      if (parameter.in !== 'path' && parameter.in !== 'query') continue;
      const kind = parameter.schema && ID_PATTERN.exec(resolved(document, parameter.schema).pattern ?? '')?.[1];
      if (kind) idFields.push({ in: parameter.in, name: parameter.name, kind, required: !!parameter.required });
      else
        parameters.push({ in: parameter.in, name: parameter.name, required: !!parameter.required, value: sampleOf(parameter, document) });
    }
    const bodies: unknown[] = [];
    const members = new Map<string, string>();
    // The test sends JSON: a multipart body's ids (POST /upload's profileId) are those of its JSON twin (POST /upload/url).
    for (const [type, content] of Object.entries(operation.requestBody?.content ?? {})) {
      if (type !== 'application/json') continue;
      idMembers(document, content.schema, [], members);
      if (content.example !== undefined) bodies.push(content.example);
      for (const example of Object.values(content.examples ?? {})) bodies.push(resolved(document, example).value);
    }
    for (const [name, kind] of members) idFields.push({ in: 'body', name, kind, required: false });
    return { operationId, method, path, requirement: requirementOf(operation.security, document), idFields, parameters, bodies };
  });
}
