import type { Document } from 'openapi-backend';
import { authOf, buildNote, docsAddress, operationsByTag, preamble, type ListedOperation, type ListingContext } from './listing.js';
import { SchemaText } from './schema-text.js';

function operationSection(
  listed: ListedOperation,
  tag: string,
  document: Document,
  context: ListingContext,
  schemas: SchemaText,
): string[] {
  const { method, path, pathParameters, operation } = listed;
  const note = buildNote(operation.operationId, context.unbuilt);
  const parameters = schemas.parameterLines(pathParameters, operation.parameters ?? []);
  return [
    `### ${method} ${path}: ${operation.summary ?? ''}`,
    '',
    `Auth: ${authOf(operation, document)}. Reference: ${docsAddress(context.baseUrl, tag, operation.operationId)}.${note ? ` ${note}` : ''}`,
    '',
    (operation.description ?? '').trim(),
    ...(parameters.length > 0 ? ['', 'Parameters:', ...parameters] : []),
    ...schemas.bodyLines(operation.requestBody),
    '',
    schemas.answersLine(operation.responses),
    '',
  ];
}

/** The llms-full.txt listing: the head of llms.txt, then every operation with its parameters and body fields. */
export function renderLlmsFullTxt(document: Document, context: ListingContext): string {
  const schemas = new SchemaText(document);
  const sections = operationsByTag(document).flatMap(({ tag, description, operations }) => [
    `## ${tag}`,
    '',
    ...(description ? [description.trim(), ''] : []),
    ...operations.flatMap((listed) => operationSection(listed, tag, document, context, schemas)),
  ]);
  return [...preamble(document, context, `${document.info.title}: every operation`), ...sections].join('\n');
}
