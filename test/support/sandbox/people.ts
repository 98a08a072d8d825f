import { expect } from 'chai';
import type { TestApp } from '../app.js';

/**
 * The sandbox's people's controls of one platform (`/_sandbox/<platform>/…`): what people do on the platform,
 * and what a test may look at there. A refused control fails the test with the sandbox's answer. The drivers
 * name the same acts the same way on every platform:
 *
 * - `new…()`: a person, bot, number or advertiser on the platform;
 * - `sendMessage()`: a person writes to the connected account;
 * - `postInApp()`: a post made in the platform's own app, not through any API;
 * - `onPlatform()`: everything the platform holds for someone, to check what happened exactly once;
 * - `revokeToken()`: one credential stops working (a password changed, a token revoked);
 * - `removeApp()`: the person takes back the app's access altogether;
 * - `failNext()`: the next calls for someone meet these faults;
 * - `configure()`: the platform's settings (token lifetimes, processing times, limits).
 */
export abstract class People {
  /** `app`: the app whose sandbox it is, read at each call (a driver may be made before the app starts). */
  protected constructor(
    protected readonly app: () => TestApp,
    private readonly platform: string,
  ) {}

  /** A control that must succeed; its answer. */
  protected async post<T = any>(control: string, body: unknown = {}): Promise<T> {
    const { status, body: answer } = await this.attempt<T>(control, body);
    expect(status, `POST /_sandbox/${this.platform}/${control}: ${JSON.stringify(answer)}`).to.be.below(300);
    return answer;
  }

  /** A control whose refusal the test looks at: its status and answer. */
  protected async attempt<T = any>(control: string, body: unknown = {}): Promise<{ status: number; body: T }> {
    const response = await fetch(this.url(control), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  /**
   * Strict (`on`), the platform refuses the URLs it is given to fetch or call that it could not reach from the
   * internet (this machine's, a private network's, http where it wants https), as the real one does.
   */
  async strictUrls(on: boolean): Promise<void> {
    await this.post('strict', { strict: on });
  }

  protected async get<T = any>(control: string, query: Record<string, string> = {}): Promise<T> {
    const response = await fetch(`${this.url(control)}?${new URLSearchParams(query)}`);
    const answer = (await response.json()) as T;
    expect(response.status, `GET /_sandbox/${this.platform}/${control}: ${JSON.stringify(answer)}`).to.be.below(300);
    return answer;
  }

  private url(control: string): string {
    return `${this.app().services.sandboxUrl}/_sandbox/${this.platform}/${control}`;
  }
}
