import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ValidateFunction } from 'ajv';
import { bodyAjv } from '../http/contract.js';
import { fieldErrors } from '../http/field-errors.js';
import { problemBody } from '../http/problem.js';
import { ValidationFailedError } from '../lib/errors.js';
import type { ApiRequest, Forward } from './forward.js';
import { jsonResult, toolResult } from './result.js';
import type { OperationTool } from './tools.js';

const validators = new WeakMap<OperationTool, ValidateFunction>();

/**
 * The tool's input checked against its schema, made of the contract's own parameter and body schemas: the errors
 * as the API words them, each at its place in the input (`input/body/text`, `input/limit`).
 */
function inputErrors(tool: OperationTool, input: Record<string, unknown>) {
  let validate = validators.get(tool);
  if (!validate) {
    validate = bodyAjv().compile({ type: 'object', properties: { input: tool.tool.inputSchema }, required: ['input'] });
    validators.set(tool, validate);
  }
  return validate({ input }) ? [] : fieldErrors(validate.errors ?? []);
}

/** A query or header value as the contract's parameters are written: arrays comma-separated (form, not exploded). */
function serialised(value: unknown): string {
  if (Array.isArray(value)) return value.map(serialised).join(',');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The operation's request for a valid input: path parameters in the path, query ones in the query string, headers, `body`. */
function requestOf(tool: OperationTool, input: Record<string, unknown>): ApiRequest {
  let path = tool.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const { name, in: where } of tool.parameters) {
    const value = input[name];
    if (value === undefined) continue;
    if (where === 'path') path = path.replace(`{${name}}`, encodeURIComponent(serialised(value)));
    else if (where === 'query') query.set(name, serialised(value));
    else headers[name] = serialised(value);
  }
  const search = query.size > 0 ? `?${query}` : '';
  return {
    method: tool.method,
    path: `${path}${search}`,
    headers,
    ...(tool.hasBody && input.body !== undefined ? { body: JSON.stringify(input.body) } : {}),
  };
}

/**
 * Runs a tool: its input is checked against the operation's schemas first (a refusal sends nothing: the API would
 * answer the same 400), then the operation's request goes through the API, whose answer is the result.
 */
export async function callTool(
  tool: OperationTool,
  input: Record<string, unknown>,
  forward: Forward,
  requestId: string,
): Promise<CallToolResult> {
  const errors = inputErrors(tool, input);
  if (errors.length > 0) {
    const problem = problemBody(new ValidationFailedError(errors), requestId);
    const detail = `${String(problem.detail)} The input was checked against the contract's schemas before sending, so nothing was sent; the API checks the same schemas and would answer this 400 itself.`;
    return jsonResult({ ...problem, detail }, true);
  }
  const request = requestOf(tool, input);
  return toolResult(await forward(request), request.path);
}
