import type { Document } from 'openapi-backend';
import type { Services } from '../../services.js';

type Requirement = Record<string, string[]>;

/** An operation of the contract, as the listings read it. */
export interface OperationView {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Requirement[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
}

export interface ListedOperation {
  method: string;
  path: string;
  /** Parameters declared for every method of the path. */
  pathParameters: unknown[];
  operation: OperationView;
}

/** What the listings say beyond the contract: where this service answers, and what it has not built. */
export interface ListingContext {
  baseUrl: string;
  unbuilt: Services['unbuilt'];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;

/** The operations under their one tag, in the order of the document's tags, then of its paths. */
export function operationsByTag(
  document: Document,
): Array<{ tag: string; description: string | undefined; operations: ListedOperation[] }> {
  const byTag = new Map<string, { description: string | undefined; operations: ListedOperation[] }>();
  for (const tag of document.tags ?? []) byTag.set(tag.name, { description: tag.description, operations: [] });
  for (const [path, item] of Object.entries(document.paths ?? {}) as Array<[string, Record<string, unknown>]>) {
    for (const method of METHODS) {
      const operation = item[method] as OperationView | undefined;
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      if (!byTag.has(tag)) byTag.set(tag, { description: undefined, operations: [] });
      byTag.get(tag)!.operations.push({
        method: method.toUpperCase(),
        path,
        pathParameters: (item.parameters as unknown[] | undefined) ?? [],
        operation,
      });
    }
  }
  return [...byTag].filter(([, { operations }]) => operations.length > 0).map(([tag, rest]) => ({ tag, ...rest }));
}

/** `public`, or the security schemes that authorise the operation (`apiKey or session`). */
export function authOf(operation: OperationView, document: Document): string {
  const security = operation.security ?? (document.security as Requirement[] | undefined) ?? [];
  if (security.length === 0) return 'public';
  return security.map((requirement) => Object.keys(requirement).join(' + ')).join(' or ');
}

/**
 * The operation's place in /docs. Redoc routes by the address's fragment: its tag's name as a slug, then its
 * operationId in lower case (test/modules/usage/llms-txt.test.ts checks the tags against the page's sidebar).
 */
export function docsAddress(baseUrl: string, tag: string, operationId: string): string {
  return `${baseUrl}/docs#/${tag.trim().toLowerCase().replace(/\s+/g, '-')}/${operationId.toLowerCase()}`;
}

/** Said of an operation that answers 501 in this version; null for one that is built. */
export function buildNote(operationId: string, unbuilt: ListingContext['unbuilt']): string | null {
  if ((unbuilt.operations as readonly string[]).includes(operationId)) return 'Not built yet: answers 501 `not_implemented`.';
  const missing = (unbuilt.partly as Record<string, string | undefined>)[operationId];
  return missing ? `Partly built: answers 501 \`not_implemented\` for ${missing}.` : null;
}

/**
 * The head of both listings: the title, the summary, where to read more, and the contract's own introduction
 * and conventions (its info.description), whose sections become labelled paragraphs.
 */
export function preamble(document: Document, context: ListingContext, title: string): string[] {
  const info = document.info as { summary?: string; version: string; description?: string };
  const { baseUrl } = context;
  const description = (info.description ?? '')
    .trim()
    .split('\n')
    .map((line) => line.replace(/^##\s+(.*)$/, '**$1**\n'));
  return [
    `# ${title}`,
    '',
    `> ${info.summary ?? ''}`,
    '',
    `Version ${info.version}. The OpenAPI document is at ${baseUrl}/openapi.json and the reference at ${baseUrl}/docs;` +
      ` ${baseUrl}/llms.txt lists the operations, and ${baseUrl}/llms-full.txt adds each one's parameters and body fields.` +
      ' An operation marked "Not built yet" answers 501 `not_implemented` in this version.',
    '',
    ...description,
    '',
  ];
}
