/** What a text action's template variables stand for in one run. */
export interface TemplateValues {
  name: string;
  keyword: string;
  text: string;
}

/** `{{text}}` brings at most this much of the message or comment. */
const TEXT_VALUE_LIMIT = 1000;
/** A rendered text is cut here (the shortest limit of the chat platforms). */
export const RENDERED_LIMIT = 4096;

const VARIABLE = /\{\{\s*(name|keyword|text)\s*\}\}/g;

/**
 * Replaces the template variables in one pass: the values are inserted as plain text and never read as a
 * template again, so a person named `{{text}}` cannot make the reply quote anything else.
 */
export function render(template: string, values: TemplateValues): string {
  const bounded = { ...values, text: values.text.slice(0, TEXT_VALUE_LIMIT) };
  return template.replace(VARIABLE, (_whole, variable: keyof TemplateValues) => bounded[variable]).slice(0, RENDERED_LIMIT);
}
