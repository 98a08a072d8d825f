import type { Document } from 'openapi-backend';
import { authOf, buildNote, docsAddress, operationsByTag, preamble, type ListingContext } from './listing.js';

/**
 * The llms.txt listing: how to get a key and the conventions, then every operation by tag with its method, path,
 * summary, authentication and place in /docs, marked when this version has not built it.
 */
export function renderLlmsTxt(document: Document, context: ListingContext): string {
  const sections = operationsByTag(document).map(({ tag, operations }) => [
    `## ${tag}`,
    '',
    ...operations.map(({ method, path, operation }) => {
      const note = buildNote(operation.operationId, context.unbuilt);
      return (
        `- ${method} ${path}: ${operation.summary ?? ''} (auth: ${authOf(operation, document)}).${note ? ` ${note}` : ''}` +
        ` [Reference](${docsAddress(context.baseUrl, tag, operation.operationId)})`
      );
    }),
    '',
  ]);
  return [...preamble(document, context, document.info.title), ...sections.flat()].join('\n');
}
