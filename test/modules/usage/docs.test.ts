import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startTestApp, type TestApp } from '../../support/app.js';

/** Hosts the page's scripts name without ever fetching from them, each with the reason it is safe. */
const NAMED_NOT_FETCHED: Record<string, string> = {
  'www.w3.org': 'XML namespace names (SVG, XLink, MathML)',
  'redocly.com': 'links to Redoc and to the OpenAPI reference, opened by the reader',
  'github.com': 'licence notes and the console banner',
  'react.dev': 'text of React error messages',
  'reactrouter.com': 'text of React Router error messages',
  'yarnpkg.com': 'text of a warning',
  'commonmark.org': 'help text',
  'en.wikipedia.org': 'help text',
  'example.com': 'placeholder text',
  'chatgpt.com': 'a link that opens the page in an assistant',
  'claude.ai': 'a link that opens the page in an assistant',
  'otel.cloud.redocly.com': 'telemetry, which the page turns off (disableTelemetry) and its policy would refuse',
};

/** Loading is allowed from the page itself, and from data: URLs written into it. */
const LOCAL_SOURCES = new Set(["'none'", "'self'", "'unsafe-inline'", 'data:']);

function isLocal(address: string): boolean {
  const trimmed = address.trim().replace(/^['"]|['"]$/g, '');
  return (
    trimmed === '' ||
    trimmed.startsWith('#') ||
    trimmed.startsWith('data:') ||
    (!/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !trimmed.startsWith('//'))
  );
}

/** The page split into its scripts, its styles and the markup around them. */
function partsOf(html: string): { scripts: string[]; styles: string[]; markup: string } {
  const scripts: string[] = [];
  const styles: string[] = [];
  const markup = html
    .replace(/<script\b[^>]*>([\s\S]*?)<\/script>/gi, (_, body: string) => {
      scripts.push(body);
      return '<script></script>';
    })
    .replace(/<style\b[^>]*>([\s\S]*?)<\/style>/gi, (_, body: string) => {
      styles.push(body);
      return '<style></style>';
    });
  return { scripts, styles, markup };
}

/** Addresses CSS loads: url(…) and @import. */
function cssAddresses(css: string): string[] {
  return [...css.matchAll(/url\(\s*([^)]*?)\s*\)|@import\s+(?:url\()?\s*['"]?([^'")\s;]+)/gi)].map((match) => match[1] ?? match[2]!);
}

/** Addresses the markup's elements load: every attribute that fetches, on every element but the links a reader follows. */
function markupAddresses(markup: string): string[] {
  const addresses: string[] = [];
  for (const [, tag, attributes] of markup.matchAll(/<([a-z][a-z0-9-]*)\b([^>]*)>/gi)) {
    for (const [, name, value] of attributes!.matchAll(/\s([a-z:-]+)\s*=\s*"([^"]*)"/gi)) {
      const attribute = name!.toLowerCase();
      if (attribute === 'style') addresses.push(...cssAddresses(value!));
      else if (attribute === 'srcset' || attribute === 'imagesrcset')
        addresses.push(...value!.split(',').map((candidate) => candidate.trim().split(/\s+/)[0]!));
      else if (['src', 'poster', 'data', 'background', 'ping', 'manifest', 'action', 'formaction'].includes(attribute))
        addresses.push(value!);
      else if ((attribute === 'href' || attribute === 'xlink:href') && !['a', 'area'].includes(tag!.toLowerCase())) addresses.push(value!);
    }
  }
  return addresses;
}

describe('getDocs — GET /docs loads nothing from elsewhere', () => {
  let app: TestApp;
  let html: string;
  before(async () => {
    app = await startTestApp();
    html = (await app.api.get('/docs')).text;
  });
  after(async () => {
    await app.close();
  });

  it('declares a policy that lets the browser load only the page itself and data written into it', () => {
    const policy = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html);
    expect(policy, 'a Content-Security-Policy meta element').to.not.equal(null);
    expect(html.indexOf(policy![0]), 'the policy comes before anything it governs').to.be.below(
      Math.min(html.indexOf('<style'), html.indexOf('<script')),
    );
    const directives = new Map(
      policy![1]!
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...sources]) => [name!, sources]),
    );
    expect(directives.get('default-src')).to.deep.equal(["'none'"]);
    for (const [name, sources] of directives) {
      if (name.endsWith('-src'))
        expect(
          sources.filter((source) => !LOCAL_SOURCES.has(source)),
          name,
        ).to.deep.equal([]);
    }
  });

  it('asks for nothing elsewhere in its markup and styles: no image, stylesheet, font, frame or script', () => {
    const { styles, markup } = partsOf(html);
    const addresses = [...markupAddresses(markup), ...styles.flatMap(cssAddresses)];
    expect(addresses.length).to.be.above(0);
    expect(addresses.filter((address) => !isLocal(address))).to.deep.equal([]);
  });

  it('names no other host in its scripts than those it only links to or mentions, and keeps telemetry off', () => {
    const { scripts } = partsOf(html);
    // The contract itself is data the page shows (examples, descriptions), not addresses it loads.
    const code = scripts.join('\n').replace(/const __redoc_definition = [\s\S]*?;\s*const __redoc_options/, 'const __redoc_options');
    const hosts = new Set([...code.matchAll(/https?:\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)+)/gi)].map((match) => match[1]!.toLowerCase()));
    expect([...hosts].filter((host) => !(host in NAMED_NOT_FETCHED))).to.deep.equal([]);
    expect(code).to.match(/const __redoc_options = \{[^}]*"disableTelemetry":true/);
  });
});

describe('getDocs — GET /docs names this instance, and every link opens the page', () => {
  let app: TestApp;
  let html: string;
  before(async () => {
    app = await startTestApp();
    html = (await app.api.get('/docs')).text;
  });
  after(async () => {
    await app.close();
  });

  it("shows this instance's PUBLIC_URL in the Servers box, not the placeholder it is built with", () => {
    expect(html).to.not.include('public-url.invalid');
    const definition = /const __redoc_definition = (\{[\s\S]*?\});\s*const __redoc_options/.exec(html);
    expect(JSON.parse(definition![1]!).servers).to.deep.equal([{ url: app.url, description: 'This instance.' }]);
    const { markup } = partsOf(html);
    expect(markup).to.include(`>${app.url}<`);
  });

  it('links only to fragments of the page (as Redoc routes them) or elsewhere: each opened in a new tab is the page', async () => {
    const { markup } = partsOf(html);
    const links = [...new Set([...markup.matchAll(/<a\b[^>]*?\shref="([^"]*)"/gi)].map((match) => match[1]!))];
    const own = links.filter((link) => !/^https?:\/\//.test(link));
    expect(own).to.include.members(['#/section/errors', '#/publishing', '#/']);
    for (const link of own) {
      const opened = new URL(link, `${app.url}/docs`);
      expect(opened.pathname, link).to.equal('/docs');
      const page = await app.api.get(`${opened.pathname}${opened.search}`);
      expect([page.status, page.headers.get('content-type')], link).to.deep.equal([200, 'text/html; charset=utf-8']);
    }
  });
});

describe('getFavicon — GET /favicon.ico', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app.close();
  });

  it("answers the service's icon, so the browser's request beside /docs is not a 404", async () => {
    const icon = await app.api.get('/favicon.ico');
    expect([icon.status, icon.headers.get('content-type')]).to.deep.equal([200, 'image/x-icon']);
    const bytes = Buffer.from(await (await fetch(`${app.url}/favicon.ico`)).arrayBuffer());
    expect(bytes.equals(readFileSync(new URL('../../../src/modules/usage/assets/favicon.ico', import.meta.url)))).to.equal(true);
    // An ICO file: reserved 0, type 1 (icon), one image.
    expect([...bytes.subarray(0, 6)]).to.deep.equal([0, 0, 1, 0, 1, 0]);
  });
});
