import { readFileSync } from 'node:fs';

/** A fenced block of the README: its language, its text and the line its fence opens on. */
export interface Block {
  lang: string;
  text: string;
  line: number;
}

/** Every fenced block of a Markdown file, in order. */
export function blocksOf(path: string): Block[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: Block[] = [];
  let open: Block | undefined;
  for (const [index, line] of lines.entries()) {
    const fence = /^```(\S*)\s*$/.exec(line);
    if (!fence) {
      if (open) open.text += `${line}\n`;
    } else if (open) {
      blocks.push(open);
      open = undefined;
    } else {
      open = { lang: fence[1]!, text: '', line: index + 1 };
    }
  }
  return blocks;
}

/**
 * A block as the walk runs it: each command (with its continuation lines) whose text says `# expect NNN` runs
 * with `SG_EXPECT=NNN`, which the walk's `curl` reports with its status; the README's addresses become the test's.
 */
export function runnable(block: Block, addresses: Record<string, string>): string {
  const lines = block.text.split('\n');
  const out: string[] = [];
  for (let start = 0; start < lines.length;) {
    let end = start;
    while (lines[end]!.endsWith('\\') && end + 1 < lines.length) end += 1;
    const command = lines.slice(start, end + 1);
    const expected = /# expect (\d{3})\b/.exec(command.join('\n'))?.[1];
    if (expected) command[0] = `SG_EXPECT=${expected} ${command[0]}`;
    out.push(...command);
    start = end + 1;
  }
  let text = out.join('\n');
  for (const [from, to] of Object.entries(addresses)) text = text.split(from).join(to);
  return text;
}
