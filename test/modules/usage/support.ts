import { expect } from 'chai';
import type { Config } from '../../../src/config.js';
import { loadConfig } from '../../../src/config.js';
import { readPlans } from '../../../src/modules/usage/plans.js';
import type { TestApp } from '../../support/app.js';

/** Usage written every 50 ms, and the plans given (none: billing not configured). */
export function usageSettings(plans?: unknown): Partial<Config> {
  return {
    usage: {
      ...loadConfig({}).usage,
      flushMs: 50,
      plans: plans === undefined ? null : readPlans({ BILLING_PLANS: JSON.stringify(plans) }),
    },
  };
}

/** Reads `GET /usage` until `done` holds of it (or fails the test with the last answer). */
export async function usageWhen(app: TestApp, token: string, done: (usage: any) => boolean, query = '', ms = 10_000): Promise<any> {
  const end = Date.now() + ms;
  for (;;) {
    const response = await app.api.get(`/usage${query}`, { token });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    if (done(response.body)) return response.body;
    if (Date.now() > end) expect.fail(`usage never got there: ${JSON.stringify(response.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
