/**
 * Makes the Redoc page that `redocly build-docs --inlineBundle` writes load nothing from elsewhere: the scripts
 * and styles are inline already, but Redoc still takes its sidebar logo and its icon sets from Redocly's CDN.
 * Those addresses are replaced by images written into the page, and a Content-Security-Policy lets the browser
 * load nothing but the page itself and data: URLs, whatever a later Redoc may add (test/modules/usage/docs.test.ts
 * lists anything it names). Its links are made fragments of the page, as Redoc routes them.
 */

import { rewritePage } from '../../src/modules/usage/docs-page.js';

/** A data: URL of an SVG image, encoded so that it is safe in a JS string and in an unquoted CSS url(). */
function svgDataUrl(svg: string): string {
  return `data:image/svg+xml,${encodeURIComponent(svg).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

const WORDMARK = svgDataUrl(
  '<svg xmlns="http://www.w3.org/2000/svg" width="56" height="16" viewBox="0 0 56 16">' +
    '<text x="0" y="12.5" font-family="system-ui, sans-serif" font-size="13" font-weight="600" fill="#0044D4">Redocly</text></svg>',
);
const MONOGRAM = svgDataUrl(
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">' +
    '<text x="3" y="12.5" font-family="system-ui, sans-serif" font-size="13" font-weight="700" fill="#0044D4">R</text></svg>',
);
/** Redoc reads an icon as `${base}/${set}/${name}.svg`: after this base, the rest is the fragment of an empty image. */
const NO_ICON_BASE = `${svgDataUrl('<svg xmlns="http://www.w3.org/2000/svg"/>')}#`;

/** What the page would fetch from the CDN, and what it shows instead. */
const CDN_ASSETS: ReadonlyArray<[string, string]> = [
  // "API docs by Redocly" at the foot of the sidebar, and its collapsed form.
  ['https://cdn.redoc.ly/redoc/logo-mini-full.svg', WORDMARK],
  ['https://cdn.redoc.ly/redoc/logo-mini.svg', MONOGRAM],
  // File-type and Font Awesome icons, drawn only for code tabs and custom icons, which the contract has none of.
  ['https://cdn.redocly.com/icons/fa/7.0.0', NO_ICON_BASE],
  ['https://cdn.redocly.com/icons/code/5.24.0', NO_ICON_BASE],
];

/**
 * Scripts and styles are inline; images and fonts only data: URLs (the 'self' of img-src is the service's own
 * media); nothing is fetched, framed, submitted or based elsewhere.
 */
const POLICY = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  'font-src data:',
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Redoc routes by the page's fragment (`/docs#/publishing/createpost`), but the links it prerenders (the sidebar's
 * sections and tags, the title) name paths (`/section/errors`, `/publishing`): a click is routed in the page, but
 * one opened in a new tab asks the service for an API route. Hydration keeps the prerendered addresses, so they
 * become the fragments Redoc routes to. Only the markup's links change, not the scripts.
 */
function fragmentLinks(html: string): string {
  return rewritePage(
    html,
    (markup) => markup.replace(/(<a\b[^>]*?\shref=")\/(?!\/)/g, '$1#/'),
    (script) => script,
  );
}

export function selfContained(html: string): string {
  // Right after the character set, before anything the policy governs.
  const withPolicy = html.replace(
    /<meta charset="[^"]*"\s*\/?>/i,
    (charset) => `${charset}\n  <meta http-equiv="Content-Security-Policy" content="${POLICY}" />`,
  );
  if (withPolicy === html) throw new Error('the Redoc page has no <meta charset> to put its Content-Security-Policy after');
  return fragmentLinks(CDN_ASSETS.reduce((page, [address, inline]) => page.replaceAll(address, inline), withPolicy));
}
