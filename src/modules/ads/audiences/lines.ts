import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ValidationFailedError } from '../../../lib/errors.js';
import type { PersonField } from '../people/hashing.js';

/** The members a line may have: the person fields, in the contract's words (`AdAudiencePerson`). */
export const PERSON_FIELDS: readonly PersonField[] = [
  'email',
  'phone',
  'firstName',
  'lastName',
  'city',
  'state',
  'zip',
  'country',
  'gender',
  'dateOfBirth',
  'externalId',
];
const KNOWN = new Set<string>(PERSON_FIELDS);

/** One line of the body: a person's plain (or hashed) fields, or why the line is refused. */
export type Line = { line: number; person: Partial<Record<PersonField, string>> } | { line: number; refused: string };

const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** The body's bytes as sent, decoded from its content coding (the pipeline checked it is one it knows). */
export function decodedBody(body: Readable, coding: string): Readable {
  const decoder = DECODERS[coding.trim().toLowerCase()];
  return decoder ? (body.pipe(decoder()) as unknown as Readable) : body;
}

/**
 * The people of an NDJSON or CSV body, line by line as it arrives (never the whole body in memory). Empty lines
 * are skipped. A CSV body's first line names its columns: an unknown one is 400 before any person is read.
 */
export async function* peopleLines(body: Readable, format: 'ndjson' | 'csv'): AsyncGenerator<Line> {
  let columns: string[] | null = null;
  let number = 0;
  for await (const text of createInterface({ input: body, crlfDelay: Infinity })) {
    number += 1;
    if (text.trim() === '') continue;
    if (format === 'ndjson') {
      yield fromJson(number, text);
      continue;
    }
    if (columns === null) {
      columns = csvHeader(text);
      continue;
    }
    const values = csvFields(text);
    if (values.length !== columns.length) {
      yield { line: number, refused: `the line has ${values.length} fields; the header names ${columns.length}` };
      continue;
    }
    const person = Object.fromEntries(columns.map((name, i) => [name, values[i]!.trim()]).filter(([, value]) => value !== ''));
    yield usable(number, person);
  }
}

function fromJson(line: number, text: string): Line {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { line, refused: 'the line is not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { line, refused: 'the line is not a JSON object' };
  const entries = Object.entries(parsed);
  const unknown = entries.find(([name]) => !KNOWN.has(name));
  if (unknown) return { line, refused: `unknown member ${unknown[0]}` };
  const wrong = entries.find(([, value]) => typeof value !== 'string');
  if (wrong) return { line, refused: `${wrong[0]} is not a string` };
  return usable(line, Object.fromEntries(entries.filter(([, value]) => (value as string).trim() !== '')) as Record<string, string>);
}

function usable(line: number, person: Record<string, string>): Line {
  return Object.keys(person).length === 0 ? { line, refused: 'the line has no field' } : { line, person };
}

function csvHeader(text: string): string[] {
  const columns = csvFields(text).map((name) => name.trim());
  const unknown = columns.filter((name) => !KNOWN.has(name));
  if (unknown.length > 0 || new Set(columns).size !== columns.length)
    throw new ValidationFailedError([
      {
        path: 'body',
        message: `the CSV header must name AdAudiencePerson members once each (${PERSON_FIELDS.join(', ')}); ${unknown.length ? `unknown: ${unknown.join(', ')}` : 'a column is named twice'}`,
        code: 'csv_header',
      },
    ]);
  return columns;
}

/** One RFC 4180 line: fields separated by commas, quoted where they hold one, `""` a quote inside quotes. */
function csvFields(text: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (char === '"') quoted = !quoted;
    else if (!quoted && char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}
