import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Handler } from '../../http/handler.js';
import { BUNDLED_CONTRACT_PATH } from '../../http/contract.js';
import { renderLlmsTxt } from './llms-txt.js';
import { checkHealth } from './health.js';

const DOCS_PATH = fileURLToPath(new URL('../../../generated/docs.html', import.meta.url));

// Read once: they change only with a new build.
let cachedDocument: string | undefined;
let cachedDocs: string | undefined;
let cachedLlmsTxt: string | undefined;

export const getHealth: Handler<'getHealth'> = async (_request, services) => {
  const health = await checkHealth(services);
  return health.status === 'ok' ? { status: 200, body: health } : { status: 503, body: health };
};

export const getLlmsTxt: Handler<'getLlmsTxt'> = async (_request, { contract }) => {
  cachedLlmsTxt ??= renderLlmsTxt(contract.document);
  return { status: 200, body: cachedLlmsTxt, contentType: 'text/plain; charset=utf-8' };
};

export const getOpenApiDocument: Handler<'getOpenApiDocument'> = async () => {
  cachedDocument ??= readFileSync(BUNDLED_CONTRACT_PATH, 'utf8');
  return { status: 200, raw: cachedDocument, contentType: 'application/json; charset=utf-8' };
};

export const getDocs: Handler<'getDocs'> = async () => {
  cachedDocs ??= readFileSync(DOCS_PATH, 'utf8');
  return { status: 200, body: cachedDocs, contentType: 'text/html; charset=utf-8' };
};
