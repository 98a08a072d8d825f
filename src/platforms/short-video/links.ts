/** The public link of a post, from what its target kept: the creator's username, and whether it is photos or a video. */
export function publicUrlOf(state: { username?: unknown; kind?: unknown }, postId: string): string | null {
  return typeof state.username === 'string' && state.username
    ? `https://www.tiktok.com/@${state.username}/${state.kind === 'photo' ? 'photo' : 'video'}/${postId}`
    : null;
}
