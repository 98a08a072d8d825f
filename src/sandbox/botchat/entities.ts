/** The tags Telegram's HTML parse mode knows (https://core.telegram.org/bots/api#html-style). */
const TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'tg-emoji',
  'code',
  'pre',
  'blockquote',
]);

/**
 * Why Telegram cannot parse `text`'s entities in `parseMode`, in its words, or null. Only HTML's tags are checked
 * (unknown, unclosed, crossed); Markdown is taken as it is.
 */
export function entitiesRefusal(text: string, parseMode: unknown): string | null {
  if (String(parseMode ?? '').toLowerCase() !== 'html') return null;
  const open: string[] = [];
  for (const match of text.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*>/g)) {
    const [, closing, raw] = match as unknown as [string, string, string];
    const tag = raw.toLowerCase();
    const offset = Buffer.byteLength(text.slice(0, match.index));
    if (!closing) {
      if (!TAGS.has(tag)) return `Bad Request: can't parse entities: Unsupported start tag "${tag}" at byte offset ${offset}`;
      open.push(tag);
      continue;
    }
    const expected = open.pop();
    if (expected !== tag) {
      const wanted = expected ? `expected "</${expected}>", found "</${tag}>"` : `found "</${tag}>"`;
      return `Bad Request: can't parse entities: Unmatched end tag at byte offset ${offset}, ${wanted}`;
    }
  }
  const unclosed = open.pop();
  return unclosed ? `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${unclosed}"` : null;
}
