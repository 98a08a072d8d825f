import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Document } from 'openapi-backend';
import { dereferenced } from '../http/contract.js';
import { buildNote, operationsByTag, type ListingContext } from '../modules/usage/listing.js';

/** Where the MCP server answers on the service; its own operation is no tool. */
export const MCP_PATH = '/mcp';

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
}

/** An operation of the contract as a tool: what the model sees, and how its input becomes the operation's request. */
export interface OperationTool {
  tool: Tool;
  /** The operation's area: its tag in lower case, spaces as `-` (`api-keys`). */
  area: string;
  method: string;
  /** The path template, `/posts/{id}`. */
  path: string;
  /** The parameters, each an input member of its own name. */
  parameters: Array<Pick<Parameter, 'name' | 'in'>>;
  /** Whether the input has a `body` member, sent as the JSON body. */
  hasBody: boolean;
}

/** An area as `/mcp?areas=` names it: the tag in lower case, spaces as `-`. */
export function areaOf(tag: string): string {
  return tag.trim().toLowerCase().replace(/\s+/g, '-');
}

/** The `areas` parameter of the MCP operation, as the contract declares it (its values and its default). */
function areasParameter(document: Document): { enum: string[]; default: string[] } {
  const parameters = (document.paths?.[MCP_PATH]?.post?.parameters ?? []) as Array<Parameter | { $ref: string }>;
  const areas = parameters.find((parameter): parameter is Parameter => 'name' in parameter && parameter.name === 'areas');
  const schema = areas?.schema as { items?: { enum?: string[] }; default?: string[] } | undefined;
  return { enum: schema?.items?.enum ?? [], default: schema?.default ?? [] };
}

/** The areas a client gets when it names none: the contract's default for `/mcp?areas=`. */
export function defaultAreas(document: Document): string[] {
  return areasParameter(document).default;
}

/** The areas `/mcp?areas=` takes: the contract's enum, which test/mcp/tools.test.ts keeps equal to its tags. */
export function knownAreas(document: Document): string[] {
  return areasParameter(document).enum;
}

const HINTS: Record<string, Tool['annotations']> = {
  GET: { readOnlyHint: true, idempotentHint: true },
  PUT: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  PATCH: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  POST: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  DELETE: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
};

/** The JSON schema of the operation's JSON body, or undefined when it takes none (or only another media type). */
function jsonBody(operation: Schema): { schema: Schema; required: boolean; description?: string } | undefined | null {
  const requestBody = operation.requestBody as
    { required?: boolean; description?: string; content?: Record<string, { schema?: Schema }> } | undefined;
  if (!requestBody) return undefined;
  const json = requestBody.content?.['application/json'];
  // A multipart upload or a streamed file has no tool: null says so (the upload is importMedia, by URL).
  if (!json) return null;
  return { schema: json.schema ?? {}, required: requestBody.required === true, description: requestBody.description };
}

/** The tool's input schema: each parameter by its name, the JSON body as `body`; nothing else. */
function inputSchema(parameters: Parameter[], body: ReturnType<typeof jsonBody>): Tool['inputSchema'] {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    properties[parameter.name] = {
      ...(parameter.schema ?? {}),
      ...(parameter.description ? { description: `${parameter.in} parameter: ${parameter.description.trim()}` } : {}),
    };
    if (parameter.required) required.push(parameter.name);
  }
  if (body) {
    properties.body = {
      ...body.schema,
      description: body.description ?? (body.schema.description as string | undefined) ?? 'The JSON body.',
    };
    if (body.required) required.push('body');
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/**
 * Every operation of the contract as a tool, by area, except the MCP operation itself and those whose body is
 * not JSON. An operation `unbuilt` lists is kept, marked unavailable in its title, description and `_meta`: a
 * model then knows it exists and why it fails, as /llms.txt tells a person.
 */
export function contractTools(document: Document, unbuilt: ListingContext['unbuilt']): OperationTool[] {
  const whole = dereferenced(document);
  const tools: OperationTool[] = [];
  for (const { tag, operations } of operationsByTag(whole)) {
    for (const { method, path, pathParameters, operation } of operations) {
      const body = jsonBody(operation as unknown as Schema);
      if (path === MCP_PATH || body === null) continue;
      const own = (operation.parameters ?? []) as Parameter[];
      const parameters = [
        ...(pathParameters as Parameter[]).filter((shared) => !own.some((p) => p.name === shared.name && p.in === shared.in)),
        ...own,
      ].filter((parameter) => parameter.in !== 'cookie');
      const note = buildNote(operation.operationId, unbuilt);
      const unavailable = (unbuilt.operations as readonly string[]).includes(operation.operationId);
      const summary = operation.summary ?? operation.operationId;
      tools.push({
        tool: {
          name: operation.operationId,
          title: unavailable ? `${summary} (unavailable)` : summary,
          description: [
            `${summary}. ${method} ${path}.`,
            ...(note ? [`${unavailable ? 'Unavailable in this instance. ' : ''}${note}`] : []),
            operation.description?.trim() ?? '',
          ]
            .filter(Boolean)
            .join('\n\n'),
          inputSchema: inputSchema(parameters, body),
          annotations: { title: summary, ...HINTS[method] },
          ...(unavailable ? { _meta: { 'socialgate/unavailable': note } } : {}),
        },
        area: areaOf(tag),
        method,
        path,
        parameters: parameters.map(({ name, in: where }) => ({ name, in: where })),
        hasBody: body !== undefined,
      });
    }
  }
  return tools;
}
