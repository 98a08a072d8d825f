/**
 * Meta's check of a callback URL (pages' and the chat app's webhooks): the GET handshake must echo the challenge.
 * Null when it passed, else the error text the platform shows.
 */
export async function verifyCallback(url: string, verifyToken: string): Promise<string | null> {
  const challenge = String(Math.floor(Math.random() * 1e9));
  const target = new URL(url);
  target.searchParams.set('hub.mode', 'subscribe');
  target.searchParams.set('hub.challenge', challenge);
  target.searchParams.set('hub.verify_token', verifyToken);
  try {
    const response = await fetch(target, { signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    if (response.status !== 200) return `HTTP Status Code = ${response.status}`;
    return text === challenge ? null : "The URL couldn't be validated. Response does not match challenge";
  } catch (error) {
    return `URL couldn't be validated: ${(error as Error).message}`;
  }
}
