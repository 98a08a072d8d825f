import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Operation } from 'openapi-backend';
import { ValidationFailedError } from '../lib/errors.js';

interface Parameter {
  name: string;
  in: string;
  explode?: boolean;
  style?: string;
  schema?: { type?: unknown };
  content?: unknown;
}

/** A request as the validation middleware hands it over: Koa's parsed query, Node's (lower-case) headers. */
export interface RequestInput {
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What the contract says of a request's input: its errors, or its query and path parameters after type coercion. */
export interface CheckedInput {
  errors: ErrorObject[];
  query: Record<string, unknown>;
  params: Record<string, unknown>;
}

/**
 * One operation's request, read exactly as openapi-backend's validateRequest reads it and checked by the same
 * compiled validators, with all that depends on the operation alone worked out once, at start. Its router does
 * that work on every request: it compiles the path template into a regular expression, deep-copies the query,
 * copies and lower-cases every header, parses the cookies and looks each query parameter up in the operation's
 * list (a third of `GET /profiles`'s own CPU in a profile under load).
 */
export class OperationInput {
  private readonly pathNames: string[];
  /** The first declaration of each query parameter, as the router's `find` picks it. */
  private readonly queryParameters = new Map<string, Parameter>();
  private readonly readsHeaders: boolean;
  /** The body's only declared media type is JSON: a body that is text must then parse as JSON. */
  private readonly onlyJson: boolean;

  constructor(
    private readonly operation: Operation,
    /** The route's template as a regular expression with one group per path parameter (contract.ts). */
    private readonly pattern: RegExp,
  ) {
    this.pathNames = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    const parameters = (operation.parameters ?? []) as Parameter[];
    for (const parameter of parameters) {
      // openapi-backend's validator would parse these; none of our operations has one, so this reads none.
      if (parameter.in === 'cookie' || (parameter.in === 'query' && parameter.content)) {
        throw new Error(`${operation.operationId}: a ${parameter.in} parameter ${parameter.name} of this kind is not read`);
      }
      if (parameter.in === 'query' && !this.queryParameters.has(parameter.name)) this.queryParameters.set(parameter.name, parameter);
    }
    this.readsHeaders = parameters.some((parameter) => parameter.in === 'header');
    const content = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content ?? {};
    const mediaTypes = Object.keys(content);
    this.onlyJson = mediaTypes.length === 1 && mediaTypes[0] === 'application/json';
  }

  /**
   * Checks the request, whose path is `normalisedPath` as the router compares it, against `validators`: the
   * backend's compiled ones for this operation (body first, then parameters).
   */
  check(normalisedPath: string, request: RequestInput, validators: ValidateFunction[]): CheckedInput {
    const errors: ErrorObject[] = [];
    const parameters: Record<string, unknown> = {
      path: this.pathParameters(normalisedPath),
      query: this.query(request.query),
      // No header parameter: the header schema is an open object without properties, which any headers pass.
      header: this.readsHeaders ? { ...request.headers } : {},
      cookie: {},
    };
    let { body } = request;
    if (typeof body !== 'object' && body !== undefined) {
      try {
        body = JSON.parse(String(body));
      } catch (error) {
        if (this.onlyJson)
          errors.push({ keyword: 'parse', instancePath: '', schemaPath: '#/requestBody', params: [], message: (error as Error).message });
      }
    }
    const contentType = String([request.headers['content-type']].flat()[0] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (typeof body === 'object' || contentType === 'application/json') parameters.requestBody = body;
    for (const validate of validators) {
      if (!validate(parameters)) errors.push(...(validate.errors ?? []));
    }
    return { errors, query: parameters.query as Record<string, unknown>, params: parameters.path as Record<string, unknown> };
  }

  /** The template's values in the path, decoded; a malformed escape is the caller's mistake (400), not ours. */
  private pathParameters(path: string): Record<string, string> {
    const values = this.pattern.exec(path) ?? [];
    return Object.fromEntries(this.pathNames.map((name, i) => [name, decodedSegment(name, values[i + 1] ?? '')]));
  }

  /**
   * A copy of the query (the validators coerce it in place), with each non-exploded list split at its commas
   * (or spaces, or pipes, by its style) and each single value of a list parameter made a list of one.
   */
  private query(raw: RequestInput['query']): Record<string, unknown> {
    const query: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [name, value] of Object.entries(raw)) {
      const parameter = this.queryParameters.get(name);
      let read: unknown = Array.isArray(value) ? [...value] : value;
      if (value && parameter?.explode === false && !(Array.isArray(value) && value.length > 1)) {
        const single = Array.isArray(value) ? value[0] : value;
        if (typeof single === 'string') read = splitList(single, parameter.style);
      }
      if (typeof read === 'string' && parameter?.schema?.type === 'array') read = [read];
      query[name] = read;
    }
    return query;
  }
}

function decodedSegment(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    throw new ValidationFailedError([
      {
        path: `path/${name}`,
        code: 'encoding',
        message: `is not valid percent-encoding: each % must start a UTF-8 byte written %XX (${raw})`,
      },
    ]);
  }
}

function splitList(value: string, style: string | undefined): string[] {
  let decoded = value.replace(/%2C/g, ',');
  if (style === 'spaceDelimited') decoded = decoded.replace(/ /g, ',').replace(/%20/g, ',');
  if (style === 'pipeDelimited') decoded = decoded.replace(/\|/g, ',').replace(/%7C/g, ',');
  return decoded.split(',');
}
