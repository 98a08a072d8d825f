import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { expect } from 'chai';

/**
 * The platforms' own published schemas, vendored in test/fixtures/platform-schemas/ (trimmed to the objects our
 * adapters read; sources and licences in its README): Stripe's OpenAPI and Google's discovery documents. An answer
 * of the sandbox that breaks one fails with every place it breaks it.
 */
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/platform-schemas/${name}`, import.meta.url), 'utf8'));

// Formats (unix-time, int64, google-datetime …) are the platforms' own names, not JSON Schema's: types are checked.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });

type Schema = Record<string, any>;

/** An OpenAPI 3.0 schema as JSON Schema: `nullable` also takes null, whatever else the schema says. */
function fromOpenApi(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(fromOpenApi);
  if (!schema || typeof schema !== 'object') return schema;
  const { nullable, ...rest } = schema as Schema;
  const out = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [
      key,
      key === 'properties'
        ? Object.fromEntries(Object.entries<Schema>(value).map(([name, each]) => [name, fromOpenApi(each)]))
        : fromOpenApi(value),
    ]),
  );
  if (typeof out.$ref === 'string') out.$ref = out.$ref.replace('#/components/schemas/', '#/definitions/');
  return nullable ? { anyOf: [out, { type: 'null' }] } : out;
}

ajv.addSchema({ $id: 'stripe', definitions: fromOpenApi(fixture('stripe.json').components.schemas) }, 'stripe');

/**
 * A discovery document's schema as JSON Schema: `$ref` names another schema of the document, and an object lists
 * every property Google answers (one the sandbox invents is a difference too).
 */
function fromDiscovery(schema: Schema): Schema {
  if (schema.$ref) return { $ref: `#/definitions/${schema.$ref}` };
  const out: Schema = {};
  if (schema.type && schema.type !== 'any') out.type = schema.type;
  if (schema.enum) out.enum = schema.enum;
  if (schema.items) out.items = fromDiscovery(schema.items);
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries<Schema>(schema.properties).map(([name, each]) => [name, fromDiscovery(each)]));
    out.additionalProperties = schema.additionalProperties ? fromDiscovery(schema.additionalProperties) : false;
  } else if (schema.additionalProperties) {
    out.additionalProperties = fromDiscovery(schema.additionalProperties);
  }
  return out;
}

for (const api of ['calendar-v3', 'mybusinessaccountmanagement-v1', 'mybusinessbusinessinformation-v1', 'businessprofileperformance-v1']) {
  const doc = fixture(`google/${api}.json`) as { schemas: Record<string, Schema> };
  const definitions = Object.fromEntries(Object.entries(doc.schemas).map(([name, schema]) => [name, fromDiscovery(schema)]));
  ajv.addSchema({ $id: api, definitions }, api);
}

const compiled = new Map<string, ValidateFunction>();

/** Fails unless `answer` is a `name` of `document` (`stripe`, or a discovery document such as `calendar-v3`). */
export function expectConforms(document: string, name: string, answer: unknown): void {
  const ref = `${document}#/definitions/${name}`;
  let validate = compiled.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  const problems = validate(answer)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
  expect(problems, `the sandbox's ${name} as ${document} publishes it`).to.deep.equal([]);
}
