import { startTestApp, type TestApp, type TestAppSettings } from './app.js';
import { newOwner, type TestOwner } from './owners.js';
import { type Inbox, Receiver } from './receiver.js';
import { type Sandbox, sandboxOf } from './sandbox/index.js';

/** What a test of the API works with. */
export interface ApiTest {
  /** The file's app: started before its first test, closed after its last. */
  readonly app: TestApp;
  /** This test's owner: signed up, with a session, an unrestricted key and a profile. */
  readonly owner: TestOwner;
  /** This test's own path on the file's HTTPS receiver, for its hooks: no other test's delivery lands here. */
  readonly inbox: Inbox;
  /** The people of the app's sandbox, on every platform. */
  readonly sandbox: Sandbox;
}

export interface HarnessOptions {
  /** The app's settings, besides those every test app starts with; a function runs before the app starts. */
  settings?: TestAppSettings | (() => Promise<TestAppSettings>);
  /** `false`: no owner is signed up before each test (a suite that counts every request it makes). */
  owner?: boolean;
}

class Harness implements ApiTest {
  private started: TestApp | undefined;
  private receiver: Receiver | undefined;
  private current: { owner: TestOwner | undefined; inbox: Inbox } | undefined;
  readonly sandbox = sandboxOf(() => this.app);

  constructor(private readonly options: HarnessOptions) {}

  get app(): TestApp {
    if (!this.started) throw new Error('the app starts before the first test: use it in a test or a hook');
    return this.started;
  }

  get owner(): TestOwner {
    const { owner } = this.ofThisTest();
    if (!owner) throw new Error('this suite signs up no owner for its tests (owner: false)');
    return owner;
  }

  get inbox(): Inbox {
    return this.ofThisTest().inbox;
  }

  private ofThisTest() {
    if (!this.current) throw new Error('each test gets its own owner and inbox: use them in a test or a beforeEach hook');
    return this.current;
  }

  async start(): Promise<void> {
    this.receiver = await Receiver.start();
    const { settings = {} } = this.options;
    this.started = await startTestApp(typeof settings === 'function' ? await settings() : settings);
  }

  async beginTest(): Promise<void> {
    const owner = this.options.owner === false ? undefined : await newOwner(this.app.api);
    this.current = { owner, inbox: this.receiver!.inbox() };
  }

  endTest(): void {
    this.current = undefined;
  }

  async stop(): Promise<void> {
    await this.started?.close();
    await this.receiver?.close();
  }
}

/**
 * A suite of API tests: the app starts once for the file (with an HTTPS receiver for its hooks), and each test
 * gets a fresh owner and a receiver path of its own. `fn` receives what the tests work with.
 */
export function describeApi(title: string, fn: (t: ApiTest) => void): void;
export function describeApi(title: string, options: HarnessOptions, fn: (t: ApiTest) => void): void;
export function describeApi(title: string, ...rest: [(t: ApiTest) => void] | [HarnessOptions, (t: ApiTest) => void]): void {
  const [options, fn] = rest.length === 1 ? [{}, rest[0]] : rest;
  describe(title, () => {
    const harness = new Harness(options);
    before('start the app and the receiver', () => harness.start());
    beforeEach('give the test its owner and inbox', () => harness.beginTest());
    afterEach(() => harness.endTest());
    fn(harness);
    // Registered last, so the suite's own after hooks still have the app.
    after('close the app and the receiver', () => harness.stop());
  });
}
