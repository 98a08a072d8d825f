import type { Document } from 'openapi-backend';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface OperationLike {
  summary?: string;
  security?: Array<Record<string, string[]>>;
  tags?: string[];
}

function authOf(operation: OperationLike, fallback: Array<Record<string, string[]>>): string {
  const security = operation.security ?? fallback;
  if (security.length === 0) return 'public';
  return security.map((requirement) => Object.keys(requirement).join(' + ')).join(' or ');
}

/** The llms.txt listing: every operation of the contract by tag, with method, path, summary and auth. */
export function renderLlmsTxt(document: Document): string {
  const fallback = (document.security ?? []) as Array<Record<string, string[]>>;
  const byTag = new Map<string, string[]>();
  for (const tag of document.tags ?? []) byTag.set(tag.name, []);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, OperationLike | undefined>)[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      const lines = byTag.get(tag) ?? [];
      lines.push(`- ${method.toUpperCase()} ${path}: ${operation.summary ?? ''} (auth: ${authOf(operation, fallback)})`);
      byTag.set(tag, lines);
    }
  }
  const info = document.info;
  const sections = [...byTag].filter(([, lines]) => lines.length > 0).map(([tag, lines]) => `## ${tag}\n\n${lines.join('\n')}`);
  return [
    `# ${info.title}`,
    '',
    `> ${(info as { summary?: string }).summary ?? ''}`,
    '',
    `Version ${info.version}. Authenticate with \`Authorization: Bearer <token>\` (an API key \`sgk_…\` or a session \`sgs_…\`).`,
    'Errors are RFC 9457 problem+json with a stable `code`. The OpenAPI document is at /openapi.json; the reference at /docs.',
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}
