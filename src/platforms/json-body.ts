/** A webhook's body (or a member of it that is JSON text) as an object; null when it is not a JSON object. */
export function jsonObject<T extends object>(text: string): T | null {
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as T) : null;
  } catch {
    return null;
  }
}
