import Router from '@koa/router';

/** A path's first segment, lower-cased as the routes match it (case-insensitively): `botchat` of `/botchat/bot1:x/getMe`. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/** A route's first segment when it is plain text; null when a parameter or a pattern may match more than one. */
function staticSegment(routePath: unknown): string | null {
  if (typeof routePath !== 'string' || !routePath.startsWith('/')) return null;
  const segment = firstSegment(routePath);
  return /[:*?+(){}\\]/.test(segment) ? null : segment;
}

/**
 * `router`'s routes, matched among those of the request path's first segment only (`/botchat`, `/social_network`,
 * `/_sandbox`…). The sandbox mounts about 400 routes, every platform's, and the router tries each one's regular
 * expression on every request: that was a fifth of the CPU the sandbox spends on a bot's `sendMessage`. Each
 * segment gets a router of its own over the same routes, in their order (a route whose first segment is a
 * parameter is in every one), so a request matches exactly what it matched before. Built from the routes mounted
 * when called: the router's `allowedMethods()` still answers for all of them.
 */
export function routesBySegment(router: Router): ReturnType<Router['routes']> {
  const anywhere = router.stack.filter((layer) => staticSegment(layer.path) === null);
  const segments = new Set(router.stack.flatMap((layer) => staticSegment(layer.path) ?? []));
  const routerOf = (layers: Router['stack']) => {
    const part = new Router();
    part.stack.push(...layers);
    return part.routes();
  };
  const bySegment = new Map(
    [...segments].map((segment) => [
      segment,
      routerOf(router.stack.filter((layer) => staticSegment(layer.path) === segment || anywhere.includes(layer))),
    ]),
  );
  const elsewhere = routerOf(anywhere);
  return (ctx, next) => (bySegment.get(firstSegment(ctx.path)) ?? elsewhere)(ctx, next);
}
