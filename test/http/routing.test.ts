import { expect } from 'chai';
import { Contract } from '../../src/http/contract.js';

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'HEAD', 'PATCH', ' get '];

type Router = Contract['router'];

/**
 * openapi-backend's router, the reference the route table must agree with, running its own matchOperation
 * code; only its operation list is built once instead of twice per call, or these comparisons would take a minute.
 */
function referenceRouter(contract: Contract): Router {
  const router = contract.router;
  const operations = router.getOperations();
  return Object.assign(Object.create(router) as Router, { getOperations: () => operations });
}

function routerMatch(router: Router, method: string, path: string): string | undefined {
  return router.matchOperation({ method, path, headers: {} })?.operationId;
}

/**
 * methodsFor as it was: the methods of the operations the router routes their own method on this path to
 * (asked once per method rather than once per operation: the answer depends on the method and path only).
 */
function routerMethodsFor(router: Router, path: string): string[] {
  const operations = router.getOperations();
  const chosen = new Map([...new Set(operations.map((op) => op.method))].map((method) => [method, routerMatch(router, method, path)]));
  return operations.filter((op) => chosen.get(op.method) === op.operationId).map((op) => op.method.toUpperCase());
}

/** Request paths for every path of the contract: templates filled in, and the usual near misses. */
function requestPaths(contract: Contract, extra: string[] = []): string[] {
  const paths = new Set<string>([
    '/',
    '',
    '/no/such/route',
    '//profiles',
    '/profiles//',
    'profiles',
    '/PROFILES',
    '/profiles?limit=5',
    ...extra,
  ]);
  for (const { path } of contract.operations) {
    const filled = path.replace(/\{[^}]+\}/g, 'x_1');
    const literal = path.replace(/\{[^}]+\}/g, (name) => name.slice(1, -1));
    for (const candidate of [
      path,
      filled,
      literal,
      `${filled}//`,
      `${filled}/extra`,
      filled.replace(/\/[^/]*$/, ''),
      ` ${filled}.json?a=b`,
    ]) {
      paths.add(candidate);
    }
  }
  return [...paths];
}

function expectRouterAgreement(contract: Contract, router: Router, paths: string[]): number {
  let compared = 0;
  for (const path of paths) {
    for (const method of METHODS) {
      expect(contract.match(method, path)?.operationId, `${method} ${path}`).to.equal(routerMatch(router, method, path));
      compared += 1;
    }
    expect(contract.methodsFor(path), path).to.deep.equal(routerMethodsFor(router, path));
  }
  return compared;
}

/** Paths whose order in the document would decide the wrong way if specificity were not weighed. */
const TRICKY_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'routing', version: '1' },
  paths: Object.fromEntries(
    Object.entries({
      '/items/{id}': ['get', 'delete'],
      '/items/mine': ['get', 'post'],
      '/items/{id}/tags/{tag}': ['get', 'delete'],
      '/items/{id}/tags/all': ['get', 'put'],
      '/items/{id}/{sub}/all': ['patch'],
      '/a/{x}/c': ['get'],
      '/a/b/{y}': ['get', 'post'],
      '/files/{name}.json': ['get'],
      '/files/{name}': ['get', 'post'],
    }).map(([path, methods]) => [
      path,
      Object.fromEntries(
        methods.map((method) => [
          method,
          {
            operationId: `${method} ${path}`,
            responses: { 200: { description: 'ok' } },
          },
        ]),
      ),
    ]),
  ),
};

describe('the route table', () => {
  it("agrees with the router where only specificity, not the document's order, picks the operation", async () => {
    const tricky = await Contract.load(TRICKY_DOCUMENT as never);
    const compared = expectRouterAgreement(
      tricky,
      referenceRouter(tricky),
      requestPaths(tricky, [
        '/items/mine',
        '/items/mine/',
        '/items/x',
        '/items/mine/tags/all',
        '/items/x/tags/all',
        '/items/x/other/all',
        '/items/x/tags/y',
        '/a/b/c',
        '/a/z/c',
        '/a/b/z',
        '/files/x.json',
        '/files/xjson',
        '/files/xxjson',
        '/files/x.json/',
        '/files/.json',
      ]),
    );
    expect(compared).to.be.greaterThan(100);
    expect(tricky.match('GET', '/items/mine')?.operationId).to.equal('get /items/mine');
    expect(tricky.match('DELETE', '/items/mine')?.operationId).to.equal('delete /items/{id}');
    expect(tricky.methodsFor('/items/mine')).to.deep.equal(['DELETE', 'GET', 'POST']);
    expect(tricky.match('GET', '/files/x.json')?.operationId).to.equal('get /files/{name}.json');
    expect(tricky.match('GET', '/files/xxjson')?.operationId).to.equal('get /files/{name}');
    expect(tricky.match('GET', '/items/x/tags/all')?.operationId).to.equal('get /items/{id}/tags/all');
    expect(tricky.match('GET', '/a/b/c')?.operationId).to.equal('get /a/{x}/c');
  });

  let contract: Contract;
  let router: Router;
  before(async () => {
    contract = await Contract.load();
    router = referenceRouter(contract);
  });

  it("matches every method and path exactly as openapi-backend's router does", () => {
    let compared = 0;
    for (const path of requestPaths(contract)) {
      for (const method of METHODS) {
        expect(contract.match(method, path)?.operationId, `${method} ${path}`).to.equal(routerMatch(router, method, path));
        compared += 1;
      }
    }
    expect(compared).to.be.greaterThan(1000);
  });

  it('names the same allowed methods for every path as the router would', () => {
    for (const path of requestPaths(contract)) {
      expect(contract.methodsFor(path), path).to.deep.equal(routerMethodsFor(router, path));
    }
  });

  it('prefers a literal path to a templated one: /accounts/health is not /accounts/{id}', () => {
    expect(contract.match('GET', '/accounts/health')?.path).to.equal('/accounts/health');
    expect(contract.match('GET', '/accounts/acc_1')?.path).to.equal('/accounts/{id}');
  });

  it("hands the validator the router's operation, path-level parameters and security included", () => {
    for (const op of router.getOperations()) {
      const matched = contract.match(op.method, op.path.replace(/\{[^}]+\}/g, 'x_1'));
      if (matched?.operationId !== op.operationId) continue; // a more specific literal path takes this request
      expect(matched).to.deep.equal(op);
    }
  });

  it('answers the same operation object every time', () => {
    expect(contract.match('GET', '/profiles')).to.equal(contract.match('GET', '/profiles/'));
  });
});
