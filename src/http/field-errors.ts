import type { ErrorObject } from 'ajv';
import type { FieldError } from '../lib/errors.js';
import { closest } from '../lib/closest.js';

/**
 * Ajv's complaints about a request as the few a person can act on, each naming the member, what was wrong and
 * what is allowed. Ajv checks every alternative of a `oneOf` and reports all their complaints; here the
 * alternative the caller meant is picked (by its discriminator, or by the member that only it requires) and only
 * its complaints are kept. The validators run with `verbose`, so each error carries its schema and data.
 */
export function fieldErrors(errors: ErrorObject[]): FieldError[] {
  const kept = withoutOtherAlternatives(errors);
  const seen = new Set<string>();
  return kept
    .map((error) => ('path' in error ? error : toFieldError(error)))
    .filter((error) => {
      const key = `${error.path} ${error.code} ${error.message}`;
      return seen.has(key) ? false : (seen.add(key), true);
    });
}

const WHERE: Record<string, string> = { requestBody: 'body', query: 'query', path: 'path', header: 'header', cookie: 'cookie' };

/** Ajv's `/requestBody/targets/0` becomes `body/targets/0`. */
function pathOf(instancePath: string, member?: string): string {
  const segments = instancePath.split('/').filter(Boolean);
  const head = segments.shift();
  return [head ? (WHERE[head] ?? head) : 'body', ...segments, ...(member === undefined ? [] : [member])].join('/');
}

type Schema = {
  properties?: Record<string, Schema | boolean>;
  required?: string[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  title?: string;
  discriminator?: { propertyName: string };
};

const listed = (values: readonly unknown[]) =>
  values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ');

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A `did you mean` for a word that is close to one of the allowed ones. */
function hint(given: unknown, allowed: readonly unknown[]): string {
  const near =
    typeof given === 'string'
      ? closest(
          given,
          allowed.filter((value): value is string => typeof value === 'string'),
        )
      : undefined;
  return near === undefined ? '' : `; did you mean "${near}"?`;
}

/** The values a discriminator member takes in one alternative. */
function tagsOf(branch: Schema, member: string): unknown[] {
  const schema = branch.properties?.[member];
  if (!isObject(schema)) return [];
  return 'const' in schema ? [schema.const] : ((schema as Schema).enum ?? []);
}

/** The alternative a `oneOf` error's data was meant for, or the one error that says which is missing or too many. */
function chooseAlternative(error: ErrorObject): number | FieldError {
  const branches = (error.schema ?? []) as Schema[];
  const parent = (error.parentSchema ?? {}) as Schema;
  const data: unknown = error.data;
  const at = pathOf(error.instancePath);
  if (!isObject(data)) return { path: at, code: 'type', message: 'must be an object' };
  const member = parent.discriminator?.propertyName;
  if (member) {
    const tags = branches.map((branch) => tagsOf(branch, member));
    const allowed = tags.flat();
    const given = data[member];
    if (given === undefined) return { path: `${at}/${member}`, code: 'required', message: `is required: one of ${listed(allowed)}` };
    const chosen = tags.findIndex((values) => values.includes(given));
    if (chosen >= 0) return chosen;
    return {
      path: `${at}/${member}`,
      code: 'enum',
      message: `is ${JSON.stringify(given)}, not one of the allowed values: ${listed(allowed)}${hint(given, allowed)}`,
    };
  }
  // Without a discriminator, each alternative is told by the members that only it requires.
  const required = branches.map((branch) => branch.required ?? []);
  const selectors = required.map((names) => names.filter((name) => !required.every((other) => other.includes(name))));
  const present = selectors.map((names) => names.length > 0 && names.every((name) => data[name] !== undefined));
  const chosen = present.flatMap((yes, index) => (yes ? [index] : []));
  if (chosen.length === 1) return chosen[0]!;
  const choices = selectors.map((names, index) => names.join(' and ') || branches[index]?.title || `alternative ${index + 1}`);
  if (chosen.length === 0) return { path: at, code: 'oneOf', message: `needs exactly one of: ${choices.join(', ')}` };
  const given = chosen.map((index) => choices[index]);
  return { path: at, code: 'oneOf', message: `takes only one of ${choices.join(', ')}, not ${given.join(' and ')} together` };
}

/** Drops the complaints of every alternative the caller did not mean, outermost `oneOf` first. */
function withoutOtherAlternatives(errors: ErrorObject[]): Array<ErrorObject | FieldError> {
  let remaining: Array<ErrorObject | FieldError> = errors.filter((error) => error.keyword !== 'if');
  const alternatives = errors
    .filter((error) => error.keyword === 'oneOf' && Array.isArray(error.schema))
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const error of alternatives) {
    if (!remaining.includes(error)) continue;
    const choice = chooseAlternative(error);
    const prefix = `${error.schemaPath}/`;
    const keep = typeof choice === 'number' ? `${prefix}${choice}/` : undefined;
    remaining = remaining.filter(
      (other) =>
        other !== error &&
        ('path' in other || !other.schemaPath.startsWith(prefix) || (keep !== undefined && other.schemaPath.startsWith(keep))),
    );
    if (typeof choice !== 'number') remaining.push(choice);
  }
  return remaining;
}

/** The members an object schema names, its own and those of its `allOf` parts. */
function membersOf(schema: Schema | undefined): string[] {
  if (!schema) return [];
  return [...Object.keys(schema.properties ?? {}), ...(schema.allOf ?? []).flatMap(membersOf)];
}

/** The pattern the contract gives names and titles meant for people: one character that is not a space. */
const BLANK_REFUSED = '\\S';

/** One Ajv error as a field error; a required, unknown or enumerated member is named with what is allowed. */
function toFieldError(error: ErrorObject): FieldError {
  const params = error.params as {
    missingProperty?: string;
    additionalProperty?: string;
    unevaluatedProperty?: string;
    allowedValues?: unknown[];
    allowedValue?: unknown;
  };
  if (error.keyword === 'required' && params.missingProperty) {
    if (error.instancePath === '' && params.missingProperty === 'requestBody')
      return { path: 'body', message: 'is required', code: 'required' };
    return { path: pathOf(error.instancePath, params.missingProperty), message: 'is required', code: 'required' };
  }
  const unknown = params.additionalProperty ?? params.unevaluatedProperty;
  if ((error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') && unknown !== undefined) {
    return {
      path: pathOf(error.instancePath, unknown),
      message: `unknown member ${unknown}${hint(unknown, membersOf(error.parentSchema as Schema | undefined))}`,
      code: 'additionalProperties',
    };
  }
  if (error.keyword === 'enum' && params.allowedValues) {
    return {
      path: pathOf(error.instancePath),
      message: `is ${JSON.stringify(error.data)}, not one of the allowed values: ${listed(params.allowedValues)}${hint(error.data, params.allowedValues)}`,
      code: 'enum',
    };
  }
  if (error.keyword === 'pattern' && error.params.pattern === BLANK_REFUSED) {
    return { path: pathOf(error.instancePath), message: 'is only spaces; write something a person can read', code: 'pattern' };
  }
  if (error.keyword === 'const') {
    return { path: pathOf(error.instancePath), message: `must be ${JSON.stringify(params.allowedValue)}`, code: 'const' };
  }
  return { path: pathOf(error.instancePath), message: error.message ?? 'is invalid', code: error.keyword };
}
