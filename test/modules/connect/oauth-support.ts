import { expect } from 'chai';

/**
 * Plays the user's browser on the sandbox's consent page: reads the form, approves or declines it. `fields`
 * replace the form's own (another signed-in user, other ticked assets).
 */
export async function consent(authorizationUrl: string, decision: 'approve' | 'deny', fields: Record<string, string> = {}): Promise<URL> {
  const page = await fetch(authorizationUrl);
  expect(page.status).to.equal(200);
  const html = await page.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  expect(action, 'a consent form').to.be.a('string');
  const form = new URLSearchParams();
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    form.set(name!, value!.replace(/&quot;/g, '"'));
  }
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('decision', decision);
  const answer = await fetch(new URL(action!, authorizationUrl), { method: 'POST', body: form, redirect: 'manual' });
  expect(answer.status).to.equal(302);
  return new URL(answer.headers.get('location')!);
}
