import { ErrorCode, McpError, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js';
import type { Forward } from './forward.js';

/** The documents an agent reads to know the API: this contract, and the listing of its operations. */
const DOCUMENTS = [
  {
    path: '/openapi.json',
    name: 'openapi.json',
    title: 'The OpenAPI contract',
    description: 'The OpenAPI 3.1 document of this instance: every operation, its parameters, bodies, answers and problem codes.',
    mimeType: 'application/json',
  },
  {
    path: '/llms.txt',
    name: 'llms.txt',
    title: 'The operations, listed for language models',
    description: 'How to get a key, the conventions, and every operation by area with what it does, marked when not built.',
    mimeType: 'text/plain',
  },
] as const;

/** The resources, named by their address on this instance (PUBLIC_URL). */
export function resourcesAt(baseUrl: string): Resource[] {
  return DOCUMENTS.map(({ path, ...resource }) => ({ uri: `${baseUrl}${path}`, ...resource }));
}

/** A resource read as any client reads it: a GET through the API. */
export async function readResource(baseUrl: string, uri: string, forward: Forward): Promise<ReadResourceResult> {
  const document = DOCUMENTS.find(({ path }) => `${baseUrl}${path}` === uri);
  if (!document)
    throw new McpError(
      ErrorCode.InvalidParams,
      `No resource ${uri}: the resources are ${resourcesAt(baseUrl)
        .map((r) => r.uri)
        .join(' and ')}.`,
    );
  const response = await forward({ method: 'GET', path: document.path });
  const text = await response.text();
  if (!response.ok) throw new McpError(ErrorCode.InternalError, `GET ${document.path} answered ${response.status}: ${text}`);
  return { contents: [{ uri, mimeType: document.mimeType, text }] };
}
