import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Handler, principalOf } from '../../http/handler.js';
import { onePer } from '../../lib/memo.js';
import type { Services } from '../../services.js';
import { docsPageFor, servedServers } from './docs-page.js';
import { checkHealth } from './health.js';
import { renderLlmsFullTxt } from './llms-full-txt.js';
import { renderLlmsTxt } from './llms-txt.js';
import type { ListingContext } from './listing.js';
import { readUsage } from './read.js';

const DOCS_PATH = fileURLToPath(new URL('../../../generated/docs.html', import.meta.url));
const FAVICON_PATH = fileURLToPath(new URL('./assets/favicon.ico', import.meta.url));

// Read once: they change only with a new build.
let builtDocs: string | undefined;
let favicon: Buffer | undefined;

function listingContext(services: Services): ListingContext {
  return { baseUrl: services.config.publicUrl, unbuilt: services.unbuilt };
}

// Rendered once per service: they name its address.
const llmsTxt = onePer((services: Services) => renderLlmsTxt(services.contract.document, listingContext(services)));
const llmsFullTxt = onePer((services: Services) => renderLlmsFullTxt(services.contract.document, listingContext(services)));

function plainText(body: string) {
  return { status: 200 as const, body, contentType: 'text/plain; charset=utf-8' };
}

export const getHealth: Handler<'getHealth'> = async (_request, services) => {
  const health = await checkHealth(services);
  return health.status === 'ok' ? { status: 200, body: health } : { status: 503, body: health };
};

export const getLlmsTxt: Handler<'getLlmsTxt'> = async (_request, services) => plainText(llmsTxt(services));

export const getLlmsFullTxt: Handler<'getLlmsFullTxt'> = async (_request, services) => plainText(llmsFullTxt(services));

/** The contract as this instance serves it: its one server is the instance itself (PUBLIC_URL), serialised once per URL. */
const servedDocuments = new Map<string, string>();

export const getOpenApiDocument: Handler<'getOpenApiDocument'> = async (_request, { contract, config }) => {
  let served = servedDocuments.get(config.publicUrl);
  if (served === undefined) {
    served = JSON.stringify({ ...contract.document, servers: servedServers(config.publicUrl) });
    servedDocuments.set(config.publicUrl, served);
  }
  return { status: 200, raw: served, contentType: 'application/json; charset=utf-8' };
};

/** The Redoc page naming this instance in its Servers box, made once per URL. */
const servedDocs = onePer((services: Services) => {
  builtDocs ??= readFileSync(DOCS_PATH, 'utf8');
  return docsPageFor(builtDocs, services.config.publicUrl);
});

export const getDocs: Handler<'getDocs'> = async (_request, services) => ({
  status: 200,
  body: servedDocs(services),
  contentType: 'text/html; charset=utf-8',
});

export const getFavicon: Handler<'getFavicon'> = async () => {
  favicon ??= readFileSync(FAVICON_PATH);
  return { status: 200, raw: favicon, contentType: 'image/x-icon' };
};

export const getUsage: Handler<'getUsage'> = async (request, services) => ({
  status: 200,
  body: await readUsage(services, principalOf(request), request.query),
});
