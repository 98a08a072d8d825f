import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';

/**
 * The sandbox a file of client-library checks talks to: started once for the file (before its first test), closed
 * after its last. `url()` is its base URL, valid in the tests.
 */
export function sandboxForFile(): { url(): string } {
  let sandbox: Sandbox | undefined;
  before('start the sandbox', async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after('close the sandbox', async () => {
    await sandbox?.close();
  });
  return {
    url: () => {
      if (!sandbox) throw new Error('the sandbox starts before the first test: use it in a test or a hook');
      return sandbox.url;
    },
  };
}
