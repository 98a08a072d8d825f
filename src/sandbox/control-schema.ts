/**
 * How a sandbox part declares the bodies of its people's controls (`/_sandbox/...`), beside its routes: one closed
 * JSON schema per `METHOD path` (as the router mounts it), with an example the control accepts. The sandbox checks
 * a body against it before the control runs, and its root page shows the example.
 */
export type ControlSchema = Record<string, unknown> & { examples: unknown[] };
export type ControlBodies = Readonly<Record<string, ControlSchema>>;

export const text = (description: string) => ({ type: 'string', minLength: 1, description });
export const integer = (description: string, minimum = 0) => ({ type: 'integer', minimum, description });
export const oneOf = (values: readonly string[], description?: string) => ({ enum: values, ...(description ? { description } : {}) });

/** An object of exactly these members, these required, shown with `example`. */
export function closed(properties: Record<string, unknown>, required: string[], example: unknown): ControlSchema {
  return { type: 'object', additionalProperties: false, properties, required, examples: [example] };
}

/**
 * Alternatives told apart by `member` (each gives it a `const` or an `enum`): a wrong body is answered within the
 * alternative its `member` names, or with the values `member` takes, rather than with every alternative's complaints.
 */
export const tagged = (member: string, alternatives: ControlSchema[]) => ({ oneOf: alternatives, discriminator: { propertyName: member } });

/** A control that takes no body: any member sent is refused as unknown. */
export const NO_BODY: ControlSchema = closed({}, [], {});

/** `POST /_sandbox/<platform>/strict` (public-urls.ts): whether the platform refuses addresses the internet cannot reach. */
export function strictControl(platform: string): ControlBodies {
  return {
    [`POST /_sandbox/${platform}/strict`]: closed(
      { strict: { type: 'boolean', description: 'true: refuse media and webhook URLs only this machine or its network reaches' } },
      ['strict'],
      { strict: true },
    ),
  };
}
