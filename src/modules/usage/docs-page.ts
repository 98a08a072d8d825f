/**
 * The contract's `servers` as an instance serves it (in /openapi.json and in the Redoc page at /docs): its one
 * server is the instance itself. generated/docs.html is built with a placeholder address that each instance
 * replaces with its PUBLIC_URL.
 */

/** The address generated/docs.html shows in its Servers box, until an instance serves the page. */
export const DOCS_SERVER_PLACEHOLDER = 'https://public-url.invalid';

export function servedServers(publicUrl: string): Array<{ url: string; description: string }> {
  return [{ url: publicUrl, description: 'This instance.' }];
}

/** The page with its markup (between the scripts) and its scripts each rewritten by their own function. */
export function rewritePage(page: string, markup: (part: string) => string, script: (part: string) => string): string {
  return page
    .split(/(<script\b[^>]*>[\s\S]*?<\/script>)/i)
    .map((part) => (part.startsWith('<script') ? script(part) : markup(part)))
    .join('');
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The page with this instance's address for the placeholder: escaped as text in the markup, and as a JSON
 * string in the scripts (the contract Redoc reads is a script's literal), whatever PUBLIC_URL holds.
 */
export function docsPageFor(page: string, publicUrl: string): string {
  const inMarkup = publicUrl.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
  const inScript = JSON.stringify(publicUrl).slice(1, -1).replace(/</g, '\\u003c');
  return rewritePage(
    page,
    (markup) => markup.replaceAll(DOCS_SERVER_PLACEHOLDER, inMarkup),
    (script) => script.replaceAll(DOCS_SERVER_PLACEHOLDER, inScript),
  );
}
