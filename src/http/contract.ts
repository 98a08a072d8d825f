import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OpenAPIRouter, OpenAPIValidator, type Document, type Operation, type ValidationContext } from 'openapi-backend';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { type CheckedInput, OperationInput, type RequestInput } from './operation-input.js';

export const BUNDLED_CONTRACT_PATH = fileURLToPath(new URL('../../generated/openapi.json', import.meta.url));

export function readBundledContract(): Document {
  return JSON.parse(readFileSync(BUNDLED_CONTRACT_PATH, 'utf8')) as Document;
}

/** The node a local pointer (`#/components/schemas/Post`) names in `document`. */
function resolvePointer(document: Document, pointer: string): unknown {
  return pointer
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], document);
}

/**
 * `node` (a part of `document`) with every local `$ref` replaced by its own copy of the target, and without
 * `example(s)` (they only annotate). openapi-backend's validator turns any object it meets twice into a `$ref`
 * (its cycle guard), which breaks shared `enum` or `examples` arrays; a tree with no shared node avoids that.
 */
function inlined(node: unknown, document: Document, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => inlined(item, document, seen));
  if (typeof node !== 'object' || node === null) return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    if (seen.includes(ref)) throw new Error(`the contract has a reference cycle through ${ref}`);
    return inlined(resolvePointer(document, ref), document, [...seen, ref]);
  }
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'example' && key !== 'examples')
      .map(([key, value]) => [key, inlined(value, document, seen)]),
  );
}

/** The whole document inlined (see `inlined`): 36 MB for our contract, so only where every operation is read at once. */
export function dereferenced(document: Document): Document {
  return inlined(document, document) as Document;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * The document as the router reads it, made at start: each operation's and path's parameters inlined, and
 * each response the operation's own object (its `$ref` followed), so that its statuses and media types read
 * directly. The schemas in bodies and responses keep their `$ref`s: an operation's are inlined when its
 * validators are first compiled (`InliningValidator`). Inlining the whole document, which openapi-backend
 * then parsed and copied again, took 0.4 s of CPU at every start.
 */
function routable(document: Document): Document {
  const follow = (node: unknown) => {
    const ref = (node as { $ref?: unknown } | undefined)?.$ref;
    return typeof ref === 'string' && ref.startsWith('#/') ? resolvePointer(document, ref) : node;
  };
  const paths = Object.entries(document.paths ?? {}).map(([path, item]) => {
    const entries = Object.entries(item as Record<string, unknown>).map(([key, value]) => {
      if (key === 'parameters') return [key, inlined(value, document)];
      if (!METHODS.has(key)) return [key, value];
      const operation = value as { parameters?: unknown; requestBody?: unknown; responses?: Record<string, unknown> };
      return [
        key,
        {
          ...operation,
          ...(operation.parameters ? { parameters: inlined(operation.parameters, document) } : {}),
          ...(operation.requestBody ? { requestBody: follow(operation.requestBody) } : {}),
          ...(operation.responses
            ? { responses: Object.fromEntries(Object.entries(operation.responses).map(([status, response]) => [status, follow(response)])) }
            : {}),
        },
      ];
    });
    return [path, Object.fromEntries(entries)];
  });
  return { ...document, paths: Object.fromEntries(paths) } as Document;
}

/*
 * `validateSchema: false`: a schema is not checked against the draft's meta-schema as it is compiled, which first
 * compiled the meta-schema itself (most of the first request's time). The contract's schemas are checked where
 * they are written (`npm run lint:spec`); MCP tools' input schemas, made from them, by test/mcp/tools.test.ts.
 */
let sharedBodyAjv: Ajv2020 | undefined;
let sharedCoercingAjv: Ajv2020 | undefined;

/** Ajv for request bodies (and MCP tool inputs), shared by every operation. */
export function bodyAjv(): Ajv2020 {
  if (!sharedBodyAjv) {
    sharedBodyAjv = new Ajv2020({ strict: false, allErrors: true, verbose: true, coerceTypes: false, validateSchema: false });
    addFormats.default(sharedBodyAjv);
  }
  return sharedBodyAjv;
}

/** The same, coercing types as parameters are (a query's `?limit=5` is a string). */
function coercingAjv(): Ajv2020 {
  if (!sharedCoercingAjv) {
    sharedCoercingAjv = new Ajv2020({ strict: false, allErrors: true, verbose: true, coerceTypes: true, validateSchema: false });
    addFormats.default(sharedCoercingAjv);
  }
  return sharedCoercingAjv;
}

/**
 * openapi-backend's validator on the routable document: an operation's body and response schemas are inlined
 * when its validators are first compiled, each time as a copy of its own (the validator rewrites a multipart
 * body's schema in place). Ajv's draft 2020-12 build, so 3.1 schemas (type arrays, const, prefixItems …) validate
 * as written; verbose: each error carries its schema and data, for src/http/field-errors.ts to pick the
 * alternative meant. One Ajv for all that coerce and one for all that do not: openapi-backend made two new ones per
 * operation, each compiling the draft's meta-schema again (most of an operation's first request).
 */
class InliningValidator extends OpenAPIValidator {
  constructor(
    router: OpenAPIRouter,
    private readonly document: Document,
  ) {
    super({ definition: router.definition, router, lazyCompileValidators: true, coerceTypes: true });
  }

  /** The operation with its body's or its responses' schemas inlined, for the validators of that part. */
  private inlinedPart(operation: Operation, part: 'requestBody' | 'responses'): Operation {
    return operation && { ...operation, [part]: inlined(operation[part], this.document) };
  }

  override buildRequestValidatorsForOperation(operation: Operation): ValidateFunction[] | null {
    return super.buildRequestValidatorsForOperation(this.inlinedPart(operation, 'requestBody'));
  }

  override buildResponseValidatorForOperation(operation: Operation): ValidateFunction | null {
    return super.buildResponseValidatorForOperation(this.inlinedPart(operation, 'responses'));
  }

  override buildStatusBasedResponseValidatorForOperation(operation: Operation) {
    return super.buildStatusBasedResponseValidatorForOperation(this.inlinedPart(operation, 'responses'));
  }

  override buildResponseHeadersValidatorForOperation(operation: Operation) {
    return super.buildResponseHeadersValidatorForOperation(this.inlinedPart(operation, 'responses'));
  }

  override getAjv(_context: ValidationContext, options: { coerceTypes?: unknown } = {}): never {
    return (options.coerceTypes ? coercingAjv() : bodyAjv()) as never;
  }
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
    private readonly router: OpenAPIRouter,
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

/** The routed, validating view of the bundled contract. */
export class Contract {
  private readonly routes: RouteTable;
  private readonly bodyValidators = new Map<string, ValidateFunction>();

  private constructor(
    readonly router: OpenAPIRouter,
    readonly validator: OpenAPIValidator,
    readonly document: Document,
  ) {
    this.routes = new RouteTable(router, router.getOperations());
  }

  /**
   * openapi-backend's router and validator, without its OpenAPIBackend: that parses the document again and
   * copies it whole to dereference it (it validates documents against the OpenAPI 3.0 schema only, and Redocly
   * lints ours, a 3.1 document, instead). Validators are compiled on an operation's first request.
   */
  static async load(document: Document = readBundledContract()): Promise<Contract> {
    const router = new OpenAPIRouter({ definition: routable(document) });
    return new Contract(router, new InliningValidator(router, document), document);
  }

  /**
   * Checks a body of another media type than JSON (multipart/form-data) against that media type's schema:
   * openapi-backend checks every body against the first of the JSON, multipart and form schemas.
   */
  validateBody(operation: Operation, mediaType: string, body: unknown): ErrorObject[] {
    const key = `${operation.operationId} ${mediaType}`;
    let validate = this.bodyValidators.get(key);
    if (!validate) {
      const content = (operation.requestBody as { content?: Record<string, { schema?: object }> } | undefined)?.content;
      // Wrapped as openapi-backend does, so errors point at /requestBody/… like its own.
      validate = bodyAjv().compile({
        type: 'object',
        required: ['requestBody'],
        properties: { requestBody: inlined(content?.[mediaType]?.schema ?? {}, this.document) },
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
    return input.check(path, request, this.validator.getRequestValidatorsForOperation(operation.operationId!) ?? []);
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
