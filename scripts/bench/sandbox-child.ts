/**
 * The sandbox in a process of its own for a benchmark (`forkSandbox` in service.ts), so that the platforms'
 * work is not counted against the service: it reports its address, and stops when the bench lets it go.
 */
import { startSandbox } from '../../src/sandbox/server.js';

const sandbox = await startSandbox({ port: 0 });
process.send!({ url: sandbox.url });
process.on('disconnect', () => void sandbox.close().then(() => process.exit(0)));
