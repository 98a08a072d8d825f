/**
 * A promise that rejected while nothing listened, and was listened to later (what Node prints as
 * PromiseRejectionHandledWarning), fails the test it happened in, naming the reason: the fix is to listen where
 * the promise is made (settle requests as they end, `Promise.allSettled` at once), not to hide the warning.
 */
const late: unknown[] = [];
const reasons = new WeakMap<Promise<unknown>, unknown>();

process.on('unhandledRejection', (reason, promise) => reasons.set(promise, reason));
process.on('rejectionHandled', (promise: Promise<unknown>) => late.push(reasons.get(promise)));

export const mochaHooks = {
  afterEach(): void {
    if (late.length === 0) return;
    const found = late.splice(0);
    throw new Error(
      `${found.length} promise(s) rejected before anything listened to them (first: ${String(found[0])}); listen where the promise is made`,
    );
  },
};
