import { randomBytes } from 'node:crypto';
import type { RouterContext } from '@koa/router';
import { type Page, type SocialState, TASKS, type Token } from './state.js';

/** The Graph's time format: seconds, `+0000`. */
export const graphTime = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', '+0000');

/** A video's `status` as the Graph shows it, a page's or an ad account's, while it processes and after. */
export function videoStatusView(status: 'processing' | 'ready' | 'error'): Record<string, unknown> {
  return {
    video_status: status,
    processing_progress: status === 'processing' ? 50 : 100,
    processing_phase: {
      status: status === 'error' ? 'error' : status === 'ready' ? 'complete' : 'in_progress',
      ...(status === 'error' ? { errors: [{ code: 1363008, message: 'The video could not be processed: the file is corrupt.' }] } : {}),
    },
  };
}

/** A page as the Graph shows it; with a page token, as `me/accounts` lists it. */
export function pageView(page: Page, token: Token | null): Record<string, unknown> {
  return {
    id: page.id,
    name: page.name,
    username: page.username,
    category: page.category,
    about: page.about,
    link: `https://social.example/${page.username}`,
    website: `https://${page.username}.example`,
    fan_count: page.followers,
    followers_count: page.followers,
    verification_status: 'not_verified',
    picture: { data: { url: `https://cdn.social.example/p/${page.id}.jpg`, is_silhouette: false } },
    ...(token ? { access_token: token.value, tasks: TASKS, category_list: [{ id: '1', name: page.category }] } : {}),
  };
}

/** The Graph API's ways of answering, shared by the sandbox's routes. */
export class Graph {
  constructor(readonly state: SocialState) {}

  /** Graph's error body; the HTTP status is mostly 400 whatever the code, as on the real API. */
  fail(
    ctx: RouterContext,
    status: number,
    code: number,
    message: string,
    extra: { subcode?: number; type?: string; headers?: Record<string, string>; user?: { title: string; message: string } } = {},
  ): void {
    ctx.status = status;
    for (const [name, value] of Object.entries(extra.headers ?? {})) ctx.set(name, value);
    ctx.body = {
      error: {
        message,
        type: extra.type ?? 'OAuthException',
        code,
        ...(extra.subcode === undefined ? {} : { error_subcode: extra.subcode }),
        // The Marketing API's words for a person, beside the developer's `message`.
        ...(extra.user ? { error_user_title: extra.user.title, error_user_msg: extra.user.message, is_transient: false } : {}),
        fbtrace_id: randomBytes(9).toString('base64url'),
      },
    };
  }

  params(ctx: RouterContext): Record<string, string> {
    const query = Object.entries(ctx.query).map(([name, value]) => [name, String(Array.isArray(value) ? value[0] : value)]);
    // A JSON body (as Meta's SDKs send) carries arrays and objects as JSON, which a form carries as JSON text.
    const body = Object.entries((ctx.request.body as Record<string, unknown> | undefined) ?? {}).map(([name, value]) => [
      name,
      typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value),
    ]);
    return Object.fromEntries([...query, ...body]);
  }

  /** An injected failure (`/_sandbox/social_network/fail-next`) answers once, in place of the call. */
  injected(ctx: RouterContext): boolean {
    const failure = this.state.failNext;
    if (!failure) return false;
    this.state.failNext = null;
    this.fail(ctx, failure.status, failure.code, failure.message, {
      subcode: failure.subcode,
      headers: failure.headers,
      type: failure.code === 1 || failure.code === 2 ? 'FacebookApiException' : 'OAuthException',
    });
    return true;
  }

  /** The caller's working token (Bearer or `access_token`), or an answer written already (2500, 190). */
  authenticate(ctx: RouterContext): Token | null {
    if (this.injected(ctx)) return null;
    const header = ctx.get('Authorization');
    const value = header.startsWith('Bearer ') ? header.slice(7) : this.params(ctx).access_token;
    if (!value) {
      this.fail(ctx, 400, 2500, 'An active access token must be used to query information about the current user.');
      return null;
    }
    const token = this.state.tokens.get(value);
    if (!token) {
      this.invalidToken(ctx, 'Invalid OAuth access token - Cannot parse access token');
      return null;
    }
    const refusal = this.state.refusal(token);
    if (refusal) {
      this.invalidToken(ctx, refusal.message, refusal.subcode);
      return null;
    }
    return token;
  }

  /** A token that does not work (190): HTTP 401 with the OAuth challenge, as Meta answers it. */
  invalidToken(ctx: RouterContext, message: string, subcode?: number): void {
    this.fail(ctx, 401, 190, message, {
      ...(subcode === undefined ? {} : { subcode }),
      headers: { 'WWW-Authenticate': `OAuth "Facebook Platform" "invalid_token" "${message.replace(/"/g, "'")}"` },
    });
  }

  /** The caller's working token, which must be a person's (not a page's); else an answer written already. */
  userToken(ctx: RouterContext): Token | null {
    const token = this.authenticate(ctx);
    if (token && token.kind !== 'user') {
      this.fail(ctx, 400, 190, 'This method must be called with a user access token.');
      return null;
    }
    return token;
  }

  unknownObject(ctx: RouterContext, id: string): void {
    this.fail(
      ctx,
      400,
      100,
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      { subcode: 33, type: 'GraphMethodException' },
    );
  }

  missingPermission(ctx: RouterContext, permissions: string): void {
    this.fail(ctx, 403, 200, `(#200) Requires ${permissions} permission to manage the object`);
  }

  /** Only the fields asked for, and `id`, as the Graph answers; `picture{url}` asks for `picture`. */
  pick(all: Record<string, unknown>, fields: string | undefined, fallback: string): Record<string, unknown> {
    const names = (fields ?? fallback)
      .split(/,(?![^{]*\})/)
      .map((field) => field.replace(/\{.*\}$/, '').trim())
      .filter(Boolean);
    return { ...Object.fromEntries(names.filter((name) => all[name] !== undefined).map((name) => [name, all[name]])), id: all.id };
  }

  /**
   * One page of a list, `{data, paging}` with opaque cursors and `next` only when more follow. `next` is the whole
   * request again (its fields, filters and token, a bearer's too) for the following page, as the Graph gives it:
   * the client libraries fetch it as it is.
   */
  list<T>(ctx: RouterContext, items: T[], base: string): { data: T[]; paging?: Record<string, unknown> } {
    const params = this.params(ctx);
    const limit = Math.min(Math.max(Number(params.limit ?? 25) || 25, 1), 100);
    const start = params.after
      ? Number(
          Buffer.from(params.after, 'base64url')
            .toString('utf8')
            .replace(/^after:/, ''),
        ) || 0
      : 0;
    const data = items.slice(start, start + limit);
    if (data.length === 0) return { data };
    const cursor = (index: number) => Buffer.from(`after:${index}`).toString('base64url');
    const after = cursor(start + data.length);
    const more = start + data.length < items.length;
    const next = new URL(base);
    for (const [name, value] of Object.entries(params)) if (name !== 'before') next.searchParams.set(name, value);
    const bearer = ctx.get('Authorization');
    if (bearer.startsWith('Bearer ')) next.searchParams.set('access_token', bearer.slice(7));
    next.searchParams.set('limit', String(limit));
    next.searchParams.set('after', after);
    return { data, paging: { cursors: { before: cursor(start), after }, ...(more ? { next: next.toString() } : {}) } };
  }
}
