import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { type CheckedInput, OperationInput, type RequestInput } from './operation-input.js';

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
export function dereferenced(document: Document): Document {
  const resolve = (pointer: string): unknown =>
    pointer
      .slice(2)
      .split('/')
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
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => key !== 'example' && key !== 'examples')
        .map(([key, value]) => [key, copy(value, seen)]),
    );
  };
  return copy(document, []) as Document;
}

/** Methods openapi-backend routes, in the order it lists an operation's methods. */
type Method = Operation['method'];

/**
 * `/profiles/{id}` as openapi-backend matches it: each template any one segment (a group, for the value), the
 * literal parts escaped.
 */
function templatePattern(path: string): RegExp {
  const escape = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${path
      .replace(/\{[^}]+\}/g, '\0')
      .split('\0')
      .map(escape)
      .join('([^/]+)')}$`,
  );
}

/**
 * Every operation's route, built once. openapi-backend's matchOperation rebuilds the operation list and
 * compiles a regular expression per operation on every call; this table answers the same question with the
 * same rules: the operation whose path is exactly the request's path and whose method is the request's
 * first, then, among the paths whose template matches, the most specific one (most literal characters; the
 * document's order among equals) that has the method. So `/accounts/health` wins over `/accounts/{id}`.
 */
class RouteTable {
  /** path → method → operation, for exact matches (templated paths included, as the router does). */
  private readonly exact = new Map<string, Map<string, Operation>>();
  /** method → routes, most specific first. */
  private readonly templated = new Map<string, Array<{ pattern: RegExp; operation: Operation }>>();
  readonly methods: Method[];
  /** How each operation's input is read, by operation. */
  readonly inputs = new Map<Operation, OperationInput>();

  constructor(
    private readonly router: OpenAPIBackend['router'],
    readonly operations: Operation[],
  ) {
    const specificity = (op: Operation) => op.path.replace(/\{.*?\}/g, '').length;
    // A stable sort, as lodash's orderBy is: equals keep the document's order.
    const bySpecificity = [...operations].sort((a, b) => specificity(b) - specificity(a));
    for (const operation of operations) {
      const byMethod = this.exact.get(operation.path) ?? new Map<string, Operation>();
      // The router's find() takes the first: keep the first of duplicates.
      if (!byMethod.has(operation.method)) byMethod.set(operation.method, operation);
      this.exact.set(operation.path, byMethod);
    }
    for (const operation of bySpecificity) {
      const pattern = templatePattern(operation.path);
      const routes = this.templated.get(operation.method) ?? [];
      routes.push({ pattern, operation });
      this.templated.set(operation.method, routes);
      this.inputs.set(operation, new OperationInput(operation, pattern));
    }
    this.methods = [...new Set(operations.map((op) => op.method))];
  }

  /** The request path as the router compares it (leading slash, no query string, no trailing slashes), or undefined outside its root. */
  normalise(path: string): string | undefined {
    const request = this.router.normalizeRequest({ method: 'get', path, headers: {} });
    const underRoot = (this.router as unknown as { isUnderApiRoot(path: string): boolean }).isUnderApiRoot(request.path);
    return underRoot ? this.router.normalizePath(request.path) : undefined;
  }

  match(method: string, normalisedPath: string): Operation | undefined {
    const wanted = method.trim().toLowerCase();
    const exact = this.exact.get(normalisedPath)?.get(wanted);
    if (exact) return exact;
    return this.templated.get(wanted)?.find((route) => route.pattern.test(normalisedPath))?.operation;
  }
}

let sharedBodyAjv: Ajv2020 | undefined;

/** Ajv for bodies openapi-backend does not check itself (and MCP tool inputs), with the options the backend's own uses. */
export function bodyAjv(): Ajv2020 {
  if (!sharedBodyAjv) {
    sharedBodyAjv = new Ajv2020({ strict: false, allErrors: true, verbose: true, coerceTypes: false });
    addFormats.default(sharedBodyAjv);
  }
  return sharedBodyAjv;
}

/** The routed, validating view of the bundled contract. */
export class Contract {
  private readonly routes: RouteTable;
  private readonly bodyValidators = new Map<string, ValidateFunction>();
  /**
   * The schemas of bodies other than JSON, copied before any request: openapi-backend rewrites the schema it
   * validates a body against in place (a multipart-only operation's: it drops the binary `file` from `required`).
   */
  private readonly otherBodySchemas = new Map<string, object>();

  private constructor(
    readonly backend: OpenAPIBackend,
    readonly document: Document,
  ) {
    this.routes = new RouteTable(backend.router, backend.router.getOperations());
    for (const operation of this.routes.operations) {
      const content = (operation.requestBody as { content?: Record<string, { schema?: object }> } | undefined)?.content ?? {};
      for (const [mediaType, media] of Object.entries(content)) {
        if (mediaType !== 'application/json')
          this.otherBodySchemas.set(`${operation.operationId} ${mediaType}`, structuredClone(media.schema ?? {}));
      }
    }
  }

  static async load(document: Document = readBundledContract()): Promise<Contract> {
    const backend = new OpenApi31Backend({
      definition: dereferenced(document),
      strict: false,
      // Validators are compiled on an operation's first request, not all at start-up.
      quick: true,
      validate: true,
      coerceTypes: true,
      // verbose: each error carries its schema and data, for src/http/field-errors.ts to pick the alternative meant.
      ajvOpts: { strict: false, allErrors: true, verbose: true },
      // Ajv's draft 2020-12 build, so 3.1 schemas (type arrays, const, prefixItems …) validate as written.
      customizeAjv: (_ajv, options) => {
        const ajv = new Ajv2020({ ...options, strict: false, allErrors: true, verbose: true });
        addFormats.default(ajv);
        return ajv as never;
      },
    });
    await backend.init();
    return new Contract(backend, document);
  }

  /**
   * Checks a body of another media type than JSON (multipart/form-data) against that media type's schema:
   * openapi-backend checks every body against the first of the JSON, multipart and form schemas.
   */
  validateBody(operation: Operation, mediaType: string, body: unknown): ErrorObject[] {
    const key = `${operation.operationId} ${mediaType}`;
    let validate = this.bodyValidators.get(key);
    if (!validate) {
      // Wrapped as openapi-backend does, so errors point at /requestBody/… like its own.
      validate = bodyAjv().compile({
        type: 'object',
        required: ['requestBody'],
        properties: { requestBody: this.otherBodySchemas.get(key) ?? {} },
      });
      this.bodyValidators.set(key, validate);
    }
    return validate({ requestBody: body }) ? [] : [...(validate.errors ?? [])];
  }

  /**
   * Checks a request's parameters and body against the operation's schemas, with openapi-backend's compiled
   * validators (compiled on the operation's first request): its errors, or the parameters after type coercion.
   */
  checkInput(operation: Operation, request: RequestInput): CheckedInput {
    const input = this.routes.inputs.get(operation);
    const path = this.routes.normalise(request.path);
    if (!input || path === undefined) throw new Error(`${operation.operationId} is not an operation of the contract's routes`);
    return input.check(path, request, this.backend.validator.getRequestValidatorsForOperation(operation.operationId!) ?? []);
  }

  /** Every operation as the router describes it (path and method, path-level parameters merged, security resolved). */
  get operations(): Operation[] {
    return this.routes.operations;
  }

  /** The operation a request is for: the same object every time, the one the validator is handed. */
  match(method: string, path: string): Operation | undefined {
    const normalised = this.routes.normalise(path);
    return normalised === undefined ? undefined : this.routes.match(method, normalised);
  }

  /** The methods a path accepts (upper case, in the document's order), to tell 405 from 404. */
  methodsFor(path: string): string[] {
    const normalised = this.routes.normalise(path);
    if (normalised === undefined) return [];
    const chosen = new Map(this.routes.methods.map((method) => [method, this.routes.match(method, normalised)]));
    return this.operations.filter((op) => chosen.get(op.method) === op).map((op) => op.method.toUpperCase());
  }
}
