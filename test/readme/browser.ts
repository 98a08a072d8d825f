/**
 * A person's browser for the README walk (`open URL`): it loads the page, presses the first button of its form
 * (the consent page's approve, the sandbox's Pay) and follows the redirects, printing where it ended and the
 * text of that page. Run by the walk's `open`, as `npx tsx test/readme/browser.ts URL`.
 */
const MAX_HOPS = 10;

async function visit(start: string): Promise<{ url: string; status: number; text: string }> {
  let url = start;
  let request: RequestInit = {};
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    const response = await fetch(url, { ...request, redirect: 'manual' });
    const location = response.headers.get('location');
    if (location && response.status >= 300 && response.status < 400) {
      url = new URL(location, url).toString();
      request = {};
      continue;
    }
    const text = await response.text();
    const form = /<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(text);
    if (!form || request.method === 'POST') return { url, status: response.status, text };
    const fields = new URLSearchParams();
    for (const [, name, value] of form[2]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields.set(name!, value!);
    const button = /<button[^>]*name="([^"]+)"[^>]*value="([^"]*)"/.exec(form[2]!);
    if (button) fields.set(button[1]!, button[2]!);
    url = new URL(form[1]!, url).toString();
    request = { method: 'POST', body: fields };
  }
  throw new Error(`more than ${MAX_HOPS} redirects from ${start}`);
}

const page = await visit(process.argv[2]!);
process.stdout.write(
  `${page.status} ${page.url}\n${page.text
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()}\n`,
);
