import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Images and sounds up to this size come inline (base64); larger ones, and other files, are described. */
const INLINE_BYTES = 5 * 1024 * 1024;

function isJson(type: string): boolean {
  return /^application\/([\w.-]+\+)?json\b/.test(type);
}

/** A JSON object as `structuredContent` (arrays and scalars have none), and as text for clients that read only text. */
export function jsonResult(body: unknown, isError: boolean): CallToolResult {
  const structured = typeof body === 'object' && body !== null && !Array.isArray(body);
  return {
    content: [{ type: 'text', text: JSON.stringify(body, null, 2) }],
    ...(structured ? { structuredContent: body as Record<string, unknown> } : {}),
    isError,
  };
}

/**
 * The API's answer as a tool result: its JSON body (a problem document for an error, with `isError`), its text,
 * an image or a sound inline, or what a larger file is and where to fetch it.
 */
export async function toolResult(response: Response, url: string): Promise<CallToolResult> {
  const isError = response.status >= 400;
  const type = (response.headers.get('Content-Type') ?? '').toLowerCase();
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length === 0) {
    const location = response.headers.get('Location');
    const said = `${response.status} ${response.statusText}${location ? `: ${location}` : ''}`;
    return { content: [{ type: 'text', text: said }], isError };
  }
  if (isJson(type)) return jsonResult(JSON.parse(bytes.toString('utf8')), isError);
  if (type.startsWith('text/')) return { content: [{ type: 'text', text: bytes.toString('utf8') }], isError };
  const mimeType = type.split(';')[0]!.trim();
  if ((mimeType.startsWith('image/') || mimeType.startsWith('audio/')) && bytes.length <= INLINE_BYTES) {
    const kind = mimeType.startsWith('image/') ? 'image' : 'audio';
    return { content: [{ type: kind, data: bytes.toString('base64'), mimeType }], isError };
  }
  const said = `${response.status}: ${bytes.length} bytes of ${mimeType || 'unknown type'}, not shown here; GET ${url} with your key fetches them.`;
  return { content: [{ type: 'text', text: said }], isError };
}
