import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const BUNDLED_CONTRACT_PATH = fileURLToPath(new URL('../../generated/openapi.json', import.meta.url));

export function readBundledContract(): Document {
  return JSON.parse(readFileSync(BUNDLED_CONTRACT_PATH, 'utf8')) as Document;
}

/**
 * openapi-backend validates documents against the OpenAPI 3.0 schema only and would drop every operation of
 * our 3.1 document; Redocly lints the document instead, so this check is skipped.
 */
class OpenApi31Backend extends OpenAPIBackend {
  override validateDefinition(): Document {
    return this.definition;
  }
}

/**
 * The document with every local `$ref` replaced by its own copy of the target, and without `example(s)`
 * (they only annotate). openapi-backend's validator turns any object it meets twice into a `$ref`
 * (its cycle guard), which breaks shared `enum` or `examples` arrays; a tree with no shared node avoids that.
 */
function dereferenced(document: Document): Document {
  const resolve = (pointer: string): unknown => pointer.slice(2).split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], document);
  const copy = (node: unknown, seen: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => copy(item, seen));
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      if (seen.includes(ref)) throw new Error(`the contract has a reference cycle through ${ref}`);
      return copy(resolve(ref), [...seen, ref]);
    }
    return Object.fromEntries(Object.entries(node)
      .filter(([key]) => key !== 'example' && key !== 'examples')
      .map(([key, value]) => [key, copy(value, seen)]));
  };
  return copy(document, []) as Document;
}

/** The routed, validating view of the bundled contract. */
export class Contract {
  private constructor(readonly backend: OpenAPIBackend, readonly document: Document) {}

  static async load(document: Document = readBundledContract()): Promise<Contract> {
    const backend = new OpenApi31Backend({
      definition: dereferenced(document),
      strict: false,
      // Validators are compiled on an operation's first request, not all at start-up.
      quick: true,
      validate: true,
      coerceTypes: true,
      ajvOpts: { strict: false, allErrors: true },
      // Ajv's draft 2020-12 build, so 3.1 schemas (type arrays, const, prefixItems …) validate as written.
      customizeAjv: (_ajv, options) => {
        const ajv = new Ajv2020({ ...options, strict: false, allErrors: true });
        addFormats.default(ajv);
        return ajv as never;
      },
    });
    await backend.init();
    return new Contract(backend, document);
  }

  get operations(): Operation[] {
    return this.backend.router.getOperations();
  }

  match(method: string, path: string): Operation | undefined {
    return this.backend.router.matchOperation({ method, path, headers: {} });
  }

  /** The methods a path accepts, to tell 405 from 404. */
  methodsFor(path: string): string[] {
    return this.operations
      .filter((op) => this.backend.router.matchOperation({ method: op.method, path, headers: {} })?.operationId === op.operationId)
      .map((op) => op.method.toUpperCase());
  }
}
