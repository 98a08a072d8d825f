import Koa from 'koa';
import { authenticationMiddleware } from './http/authentication.js';
import { bodyMiddleware } from './http/body.js';
import { dispatchMiddleware } from './http/dispatch.js';
import { idempotencyMiddleware } from './http/idempotency.js';
import { problemMiddleware } from './http/problem.js';
import { rateLimitMiddleware } from './http/rate-limit.js';
import { routeMiddleware } from './http/route.js';
import { unbuiltMiddleware } from './http/unbuilt.js';
import { validationMiddleware } from './http/validate.js';
import { Authenticator } from './modules/auth/authenticate.js';
import { operationHandlers, unbuiltOperations } from './modules/index.js';
import { mediaFolders } from './modules/media/storage.js';
import type { Services } from './services.js';

/**
 * The request pipeline, in the order a request meets it: request id and problem mapping, the contract's
 * route, authentication, the rate limit, the body, the contract's validation, idempotency, the handler.
 */
export function createApp(services: Services): Koa {
  const { config, db, contract, logger } = services;
  const app = new Koa({ proxy: config.trustProxy });
  app.silent = true;
  app.use(problemMiddleware(logger, config.jsonBodyLimit));
  app.use(routeMiddleware(contract));
  // The per-key (per-session) limit is counted once the caller is known; public routes per address.
  app.use(
    authenticationMiddleware(
      new Authenticator(db, services.principals),
      contract.document,
      services.rateLimits.perPrincipal,
      services.usage,
    ),
  );
  app.use(rateLimitMiddleware(services.rateLimits));
  app.use(unbuiltMiddleware(unbuiltOperations()));
  // Uploads in progress live beside the stored media (DATA_DIR/media), so storing one is a rename.
  app.use(bodyMiddleware(config.jsonBodyLimit, { maxBytes: config.media.maxBodyBytes, tmpDir: mediaFolders(config.dataDir).tmp }));
  app.use(validationMiddleware(contract));
  app.use(idempotencyMiddleware(db, services.secrets));
  app.use(dispatchMiddleware(operationHandlers(), services));
  return app;
}
