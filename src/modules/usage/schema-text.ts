/**
 * Parameters and body fields of the contract's operations as markdown list items, for /llms-full.txt: each
 * member with its path (`platformOptions.short_video.privacyLevel`), its type, whether it is required and its
 * description, then the rules between members (exactly one of, at least one of, not both …).
 */

type Node = Record<string, unknown>;

/** Nested objects are listed to this depth; deeper ones are named with their type only. */
const MAX_DEPTH = 3;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Markdown cells of a table row, or null for a line that is not one. */
function cells(line: string): string[] | null {
  const row = line.trim();
  return row.startsWith('|') && row.endsWith('|')
    ? row
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim())
    : null;
}

/** A description on one line; a table's rows become `value: meaning; …` (its header and rule dropped). */
function oneLine(text: unknown): string {
  if (typeof text !== 'string') return '';
  const isRule = (line: string | undefined) => line !== undefined && /^\s*\|[\s|:-]+\|\s*$/.test(line);
  const lines = text.trim().split('\n');
  const parts: string[] = [];
  let rows: string[] = [];
  const endTable = () => {
    if (rows.length > 0) parts.push(`${rows.join('; ')}.`);
    rows = [];
  };
  lines.forEach((line, index) => {
    if (isRule(line) || isRule(lines[index + 1])) return;
    const row = cells(line);
    if (row) rows.push(row.join(': ').replace(/\.$/, ''));
    else {
      endTable();
      if (line.trim()) parts.push(line.trim());
    }
  });
  endTable();
  return parts.join(' ');
}

function literal(value: unknown): string {
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/** A branch that only says which members must be present (`required: [publishNow]`), as a choice of members is written. */
function picksMembers(branch: unknown): branch is Node & { required: string[] } {
  if (!isNode(branch) || !Array.isArray(branch.required)) return false;
  return Object.keys(branch).every((key) => ['required', 'title', 'description', 'properties'].includes(key));
}

/** The object a schema describes, with what allOf adds: its members, the required ones, and the parts its rules are on. */
interface ObjectView {
  properties: Array<[string, unknown]>;
  required: Set<string>;
  parts: Node[];
}

export class SchemaText {
  constructor(private readonly document: object) {}

  /** A node with its `$ref` (to the bundled document) followed. */
  private resolve(node: unknown): unknown {
    let current = node;
    for (let hops = 0; isNode(current) && typeof current.$ref === 'string' && hops < 16; hops += 1) {
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((at, part) => (at as Node | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], this.document);
    }
    return current;
  }

  private refName(node: unknown): string | undefined {
    return isNode(node) && typeof node.$ref === 'string' ? node.$ref.split('/').pop() : undefined;
  }

  private typeOf(node: unknown): string {
    const schema = this.resolve(node);
    if (!isNode(schema)) return 'any';
    if ('const' in schema) return literal(schema.const);
    if (Array.isArray(schema.enum))
      return schema.enum.length === 1 ? literal(schema.enum[0]) : `one of ${schema.enum.map(literal).join(', ')}`;
    if (schema.format === 'binary') return 'binary';
    const variants = schema.oneOf ?? schema.anyOf;
    if (Array.isArray(variants) && !variants.every(picksMembers))
      return [...new Set(variants.map((variant) => this.typeOf(variant)))].join(' or ');
    const types = Array.isArray(schema.type)
      ? schema.type
      : schema.type
        ? [schema.type]
        : schema.properties || schema.allOf
          ? ['object']
          : [];
    if (types.length === 0) return 'any';
    return types
      .map((type) => {
        if (type === 'array') return `array of ${this.typeOf(schema.items)}`;
        return type === 'string' && typeof schema.format === 'string' ? `string, ${schema.format}` : String(type);
      })
      .join(' or ');
  }

  private descriptionOf(node: unknown): string {
    const own = isNode(node) ? oneLine(node.description) : '';
    const text = own || oneLine((this.resolve(node) as Node | undefined)?.description);
    return text ? `: ${text}` : '';
  }

  private objectView(node: unknown): ObjectView {
    const view: ObjectView = { properties: [], required: new Set(), parts: [] };
    const visit = (part: unknown): void => {
      const schema = this.resolve(part);
      if (!isNode(schema)) return;
      view.parts.push(schema);
      for (const [name, member] of Object.entries((schema.properties ?? {}) as Node)) {
        if (member !== true && !view.properties.some(([known]) => known === name)) view.properties.push([name, member]);
      }
      for (const name of (schema.required ?? []) as string[]) view.required.add(name);
      for (const member of (schema.allOf ?? []) as unknown[]) visit(member);
    };
    visit(node);
    return view;
  }

  /** The forms a schema may take (its oneOf or anyOf branches) that are objects with members. */
  private objectForms(node: unknown): unknown[] {
    const schema = this.resolve(node);
    const branches = isNode(schema) ? ((schema.oneOf ?? schema.anyOf ?? []) as unknown[]) : [];
    return branches.every(picksMembers) ? [] : branches.filter((branch) => this.objectView(branch).properties.length > 0);
  }

  /** Whether a schema has members to list: its own, or those of the objects it may be. */
  private hasMembers(node: unknown): boolean {
    return this.objectView(node).properties.length > 0 || this.objectForms(node).length > 1;
  }

  /** What to list under a member: its own members, its items', or those of the one object it may be (else null). */
  private inner(node: unknown): { node: unknown; suffix: string } | null {
    if (this.hasMembers(node)) return { node, suffix: '.' };
    const schema = this.resolve(node);
    if (!isNode(schema)) return null;
    if (schema.items !== undefined && this.hasMembers(schema.items)) return { node: schema.items, suffix: '[].' };
    const forms = this.objectForms(node);
    return forms.length === 1 ? { node: forms[0], suffix: '.' } : null;
  }

  /** The members of an object schema and the rules between them, as list items. */
  fieldLines(node: unknown, prefix = '', depth = 0, indent = ''): string[] {
    const view = this.objectView(node);
    const lines: string[] = [];
    for (const [name, member] of view.properties) {
      const path = `${prefix}${name}`;
      lines.push(
        `${indent}- \`${path}\` (${this.typeOf(member)}, ${view.required.has(name) ? 'required' : 'optional'})${this.descriptionOf(member)}`,
      );
      const inner = depth < MAX_DEPTH ? this.inner(member) : null;
      if (inner) lines.push(...this.fieldLines(inner.node, `${path}${inner.suffix}`, depth + 1, indent));
    }
    for (const part of view.parts) lines.push(...this.ruleLines(part, prefix, depth, indent));
    return lines;
  }

  private ruleLines(schema: Node, prefix: string, depth: number, indent: string): string[] {
    const lines: string[] = [];
    const member = (name: string) => `\`${prefix}${name}\``;
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const branches = schema[keyword];
      if (!Array.isArray(branches)) continue;
      if (branches.every(picksMembers)) {
        const choices = branches.map(
          (branch) => `${branch.required.map(member).join(' and ')}${typeof branch.title === 'string' ? ` (${branch.title})` : ''}`,
        );
        lines.push(`${indent}- ${keyword === 'oneOf' ? 'Exactly one of' : 'At least one of'}: ${choices.join(', ')}.`);
      } else if (this.objectForms(schema).length > 1) {
        const by = (schema.discriminator as { propertyName?: string } | undefined)?.propertyName;
        lines.push(`${indent}- ${keyword === 'oneOf' ? 'One of' : 'Any of'}${by ? ` (told apart by ${member(by)})` : ''}:`);
        this.objectForms(schema).forEach((form, index) => {
          const label = (this.resolve(form) as Node | undefined)?.title ?? this.refName(form) ?? `form ${index + 1}`;
          lines.push(`${indent}  - ${String(label)}:`, ...this.fieldLines(form, prefix, depth + 1, `${indent}    `));
        });
      }
    }
    const absent = ((schema.if as Node | undefined)?.not as Node | undefined)?.required;
    const then = (schema.then as Node | undefined)?.required;
    if (Array.isArray(absent) && Array.isArray(then))
      lines.push(
        `${indent}- Without ${absent.map(member).join(' and ')}, ${then.map(member).join(' and ')} ${then.length > 1 ? 'are' : 'is'} required.`,
      );
    const together = (schema.not as Node | undefined)?.required;
    if (Array.isArray(together) && together.length > 1)
      lines.push(`${indent}- Not ${together.length > 2 ? 'all of' : 'both'} ${together.map(member).join(' and ')}.`);
    if (typeof schema.minProperties === 'number' && schema.minProperties > 0) {
      lines.push(`${indent}- At least ${schema.minProperties} member${schema.minProperties > 1 ? 's' : ''}.`);
    }
    return lines;
  }

  /** The parameters of an operation (the path's, then its own, which win), as list items. */
  parameterLines(pathParameters: unknown[], parameters: unknown[]): string[] {
    const byPlace = new Map<string, Node>();
    for (const parameter of [...pathParameters, ...parameters]) {
      const resolved = this.resolve(parameter);
      if (isNode(resolved)) byPlace.set(`${String(resolved.in)} ${String(resolved.name)}`, resolved);
    }
    return [...byPlace.values()].map(
      (parameter) =>
        `- \`${String(parameter.name)}\` (${String(parameter.in)}, ${this.typeOf(parameter.schema)}, ` +
        `${parameter.required ? 'required' : 'optional'})${this.descriptionOf(parameter.description ? parameter : parameter.schema)}`,
    );
  }

  /** Each media type of a request body with its fields. */
  bodyLines(requestBody: unknown): string[] {
    const body = this.resolve(requestBody);
    if (!isNode(body) || !isNode(body.content)) return [];
    return Object.entries(body.content).flatMap(([mediaType, media]) => {
      const schema = (media as Node).schema;
      const fields = this.fieldLines(schema);
      return [
        '',
        `Body (${mediaType}, ${body.required ? 'required' : 'optional'}):`,
        ...(fields.length > 0 ? fields : [`- ${this.typeOf(schema)}`]),
      ];
    });
  }

  /** The statuses an operation answers, successes with what they carry. */
  answersLine(responses: Record<string, unknown> | undefined): string {
    const answers = Object.entries(responses ?? {}).map(([status, response]) =>
      Number(status) < 400
        ? `${status} (${oneLine((this.resolve(response) as Node | undefined)?.description).replace(/\.$/, '')})`
        : status,
    );
    return `Answers: ${answers.join(', ')}.`;
  }
}
