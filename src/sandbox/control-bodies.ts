import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fieldErrors } from '../http/field-errors.js';
import { DEMO_BOT_TOKEN } from './botchat/platform.js';
import { DEMO_ACCESS_TOKEN, DEMO_PHONE_NUMBER_ID, DEMO_WABA_ID } from './chatapp-cloud/demo.js';
import type { ControlBodies } from './control-schema.js';
import { SANDBOXES } from './platforms.js';
import { DEMO_PAGES } from './social-network/demo.js';

/**
 * The bodies of the people's controls, as each sandbox part declares them beside its routes (control-schema.ts), by
 * `METHOD path` as the router mounts them: the root page shows each with its example, and a body that does not fit
 * is refused with 400 and the reason before the control runs, rather than filled in with defaults.
 */
const BODIES: ControlBodies = Object.assign({}, ...SANDBOXES.map((part) => part.controls ?? {}));

// `verbose` and the body under a `body` member let the API's own wording (fieldErrors) name each member as `body/...`.
const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true });
/**
 * Each compiled on its control's first call: compiling all of them (over a hundred) made an eighth of the
 * service's start, for controls people call by hand now and then.
 */
const validators = new Map<string, ValidateFunction>();

function validatorOf(route: string): ValidateFunction | undefined {
  const schema = BODIES[route];
  if (!schema) return undefined;
  let validate = validators.get(route);
  if (!validate) {
    validate = ajv.compile({ type: 'object', properties: { body: schema }, required: ['body'] });
    validators.set(route, validate);
  }
  return validate;
}

/** Why a control's body does not fit its schema, in words; undefined when it fits or the control declares none. */
export function bodyRefusal(route: string, body: unknown): string | undefined {
  const validate = validatorOf(route);
  if (!validate || validate({ body: body ?? {} })) return undefined;
  return fieldErrors(validate.errors ?? [])
    .map((error) => `${error.path} ${error.message}`)
    .join('; ');
}

/** Every control that declares its body, by `METHOD path`. */
export function declaredControls(): string[] {
  return Object.keys(BODIES);
}

/** The example body of a control, as JSON, for the root page. */
export function exampleBody(route: string): string | undefined {
  const schema = BODIES[route];
  return schema ? JSON.stringify(schema.examples[0]) : undefined;
}

/** The credentials the sandbox starts with, so that a first connection needs nothing made by hand. */
export const DEMO_CREDENTIALS = [
  `botchat bot token: ${DEMO_BOT_TOKEN}`,
  `chatapp-cloud: business account ${DEMO_WABA_ID}, phone number id ${DEMO_PHONE_NUMBER_ID}, token ${DEMO_ACCESS_TOKEN}`,
  `social_network: the consent page's person manages the pages ${DEMO_PAGES.map((page) => `${page.id} (${page.name})`).join(', ')}`,
];
