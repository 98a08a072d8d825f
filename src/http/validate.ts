import type { Context, Next } from 'koa';
import type { ErrorObject } from 'ajv';
import { UnsupportedMediaTypeError, ValidationFailedError } from '../lib/errors.js';
import { unstorableCharacters } from '../lib/storable.js';
import type { Contract } from './contract.js';
import { isStreamed } from './body.js';
import { fieldErrors } from './field-errors.js';
import type { RequestState } from './state.js';

/** The error openapi-backend reports for a body it was not given. */
function isMissingBody(error: ErrorObject): boolean {
  return error.keyword === 'required' && (error.params as { missingProperty?: string }).missingProperty === 'requestBody';
}

/** An operation whose body is stored as received (`x-verbatim-body`), never rewritten or refused for its strings. */
function isVerbatim(operation: object): boolean {
  return (operation as { 'x-verbatim-body'?: unknown })['x-verbatim-body'] === true;
}

function declaredMediaTypes(operation: { requestBody?: unknown }): string[] {
  const content = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content;
  return content ? Object.keys(content) : [];
}

/** Checks parameters and body against the contract; the handler then trusts them. */
export function validationMiddleware(contract: Contract) {
  return (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    const operation = ctx.state.operation!;
    const mediaTypes = declaredMediaTypes(operation);
    if (ctx.request.length && mediaTypes.length > 0 && !ctx.is(...mediaTypes)) throw new UnsupportedMediaTypeError(mediaTypes);
    // openapi-backend checks any body against the JSON schema; a multipart body is checked against its own.
    const multipart = mediaTypes.includes('multipart/form-data') && ctx.is('multipart/form-data') === 'multipart/form-data';
    const result = contract.checkInput(operation, {
      path: ctx.path,
      headers: ctx.headers,
      query: ctx.query,
      body: multipart ? undefined : ctx.request.body,
    });
    const errors = isStreamed(operation)
      ? result.errors.filter((e) => !isMissingBody(e))
      : multipart
        ? [...result.errors.filter((e) => !isMissingBody(e)), ...contract.validateBody(operation, 'multipart/form-data', ctx.request.body)]
        : result.errors;
    const refused = [
      ...fieldErrors(errors),
      ...unstorableCharacters('query', ctx.query),
      ...unstorableCharacters('path', result.params),
      ...(isVerbatim(operation) ? [] : unstorableCharacters('body', ctx.request.body)),
    ];
    if (refused.length > 0) throw new ValidationFailedError(refused);
    ctx.state.query = result.query;
    ctx.state.params = result.params;
    return next();
  };
}
