/**
 * A platform's webhook sender for a benchmark, in a process of its own (`forkWebhookSender` in service.ts), as a
 * platform sends from elsewhere: its sending does not count against the service's CPU. Driven over IPC: each
 * command is a batch of signed requests, sent `concurrency` at a time; the answer says when each was sent.
 */
import { Pool } from 'undici';

export interface SendCommand {
  url: string;
  concurrency: number;
  /** Each request's headers (its signature among them) and body. */
  requests: Array<{ headers: Record<string, string>; body: string }>;
}

export type SendAnswer = { sentAt: number[] } | { error: string };

/**
 * Sends over a pool of `concurrency` kept-alive connections with undici's plain `request`: a platform's sender is
 * lean, and `fetch` (WHATWG streams, a Response per request) cost the bench's machine about twice the CPU.
 */
async function sendAll({ url, concurrency, requests }: SendCommand): Promise<number[]> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: concurrency });
  const sentAt: number[] = [];
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < requests.length; i = next++) {
          const { headers, body } = requests[i]!;
          sentAt[i] = Date.now();
          const response = await pool.request({
            method: 'POST',
            path: target.pathname + target.search,
            headers: { 'content-type': 'application/json', ...headers },
            body,
          });
          // Read whole, so that the connection takes the next request.
          const answer = await response.body.text();
          if (response.statusCode !== 200) throw new Error(`webhook: ${response.statusCode} ${answer}`);
        }
      }),
    );
  } finally {
    await pool.close();
  }
  return sentAt;
}

process.on('message', (command: SendCommand) => {
  sendAll(command).then(
    (sentAt) => process.send!({ sentAt } satisfies SendAnswer),
    (error: unknown) => process.send!({ error: String(error) } satisfies SendAnswer),
  );
});
process.on('disconnect', () => process.exit(0));
process.send!('ready');
