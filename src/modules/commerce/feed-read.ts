import { parse as parseCsv, type Info } from 'csv-parse/sync';
import { SaxesParser } from 'saxes';
import { discardBody, type GuardedStream } from '../../lib/guarded-http.js';
import type { Services } from '../../services.js';
import { clientFor, MAX_REDIRECTS, transportDetail } from '../media/import.js';
import { ProductFeedUnreadableError } from './errors.js';

/** A feed larger than this is refused: 10 MiB holds tens of thousands of products, and the whole feed is in memory. */
const MAX_FEED_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;

export type FeedFormat = 'csv' | 'xml';

/** One product of a feed: the line it starts on, and its columns by the platform's feed names (`image_link`). */
export interface FeedRow {
  line: number;
  columns: Record<string, string>;
}

/** The feed's text and what its server called it, fetched through the SSRF guard of media URL imports. */
async function fetchFeed(services: Services, url: string): Promise<{ text: string; contentType: string }> {
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  let response: GuardedStream;
  try {
    response = await clientFor(services).open(url, {
      maxRedirects: MAX_REDIRECTS,
      signal,
      headers: { accept: 'text/csv, application/rss+xml, application/xml, text/xml, */*;q=0.1' },
    });
  } catch (error) {
    throw new ProductFeedUnreadableError(`the URL could not be fetched: ${transportDetail(error, FETCH_TIMEOUT_MS)}`);
  }
  if (response.status < 200 || response.status > 299) {
    discardBody(response.body);
    throw new ProductFeedUnreadableError(`the URL answered HTTP ${response.status}, not 200 with the feed.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_FEED_BYTES) {
        discardBody(response.body);
        throw new ProductFeedUnreadableError(`the feed is larger than ${MAX_FEED_BYTES / 1024 / 1024} MiB, the most read.`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof ProductFeedUnreadableError) throw error;
    throw new ProductFeedUnreadableError(`the answer broke off (${(error as Error).message}).`);
  }
  const contentType = String(response.headers['content-type'] ?? '');
  return { text: new TextDecoder('utf-8').decode(Buffer.concat(chunks)), contentType };
}

/** The format named, else the one the Content-Type says, else XML when the text starts with `<`. */
function formatOf(named: FeedFormat | undefined, contentType: string, text: string): FeedFormat {
  if (named) return named;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/csv' || type === 'application/csv') return 'csv';
  if (type.endsWith('/xml') || type.endsWith('+xml')) return 'xml';
  return text.trimStart().startsWith('<') ? 'xml' : 'csv';
}

/** Rows of a CSV feed: a header row of column names, then one product a row. */
function csvRows(text: string): FeedRow[] {
  let records: Array<{ record: string[]; info: Info }>;
  try {
    records = parseCsv(text, { bom: true, info: true, skip_empty_lines: true }) as unknown as typeof records;
  } catch (error) {
    throw new ProductFeedUnreadableError(`it is not valid CSV (${(error as Error).message}).`);
  }
  const [header, ...rows] = records;
  if (!header) throw new ProductFeedUnreadableError('it is empty.');
  const names = header.record.map((name) => name.trim().toLowerCase());
  return rows.map(({ record, info }) => ({
    line: info.lines,
    columns: Object.fromEntries(names.map((name, index) => [name, (record[index] ?? '').trim()])),
  }));
}

/** Rows of an RSS 2.0 feed: each `item`'s child elements by local name (`g:price` is `price`). */
function xmlRows(text: string): FeedRow[] {
  const parser = new SaxesParser({ xmlns: true });
  const rows: FeedRow[] = [];
  let row: FeedRow | null = null;
  let depth = 0;
  let value = '';
  parser.on('opentag', (tag) => {
    if (row) depth += 1;
    else if (tag.local === 'item') row = { line: parser.line, columns: {} };
    value = '';
  });
  parser.on('text', (chunk) => (value += chunk));
  parser.on('cdata', (chunk) => (value += chunk));
  parser.on('closetag', (tag) => {
    if (!row) return;
    if (depth === 0) {
      rows.push(row);
      row = null;
      return;
    }
    if (depth === 1) row.columns[tag.local] = value.trim();
    depth -= 1;
  });
  try {
    parser.write(text).close();
  } catch (error) {
    throw new ProductFeedUnreadableError(`it is not well-formed XML (${(error as Error).message}).`);
  }
  return rows;
}

/** The rows of the feed at `url`; a feed that cannot be fetched or parsed is 422 `product_feed_unreadable`. */
export async function readFeed(services: Services, url: string, format: FeedFormat | undefined): Promise<FeedRow[]> {
  const { text, contentType } = await fetchFeed(services, url);
  const rows = formatOf(format, contentType, text) === 'csv' ? csvRows(text) : xmlRows(text);
  if (rows.length === 0) throw new ProductFeedUnreadableError('it has no products.');
  return rows;
}
