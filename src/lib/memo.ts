/**
 * One `make(owner)` per owner, made on first use and kept while the owner lives: the batchers that a database
 * pool's concurrent callers share (never given a transaction: a batch of statements runs on the pool, outside any
 * caller's transaction), or what a service's requests share (its clients, its caches, what it renders once).
 */
export function onePer<Owner extends object, Shared>(make: (owner: Owner) => Shared): (owner: Owner) => Shared {
  const made = new WeakMap<Owner, Shared>();
  return (owner) => {
    let shared = made.get(owner);
    if (shared === undefined) {
      shared = make(owner);
      made.set(owner, shared);
    }
    return shared;
  };
}

/**
 * `onePer` for work that may fail (a registration, a read of files): its promise is shared while it is pending or
 * once it succeeded; a failure is forgotten, so the owner's next caller tries again.
 */
export function onePerUntilFailed<Owner extends object, T>(make: (owner: Owner) => Promise<T>): (owner: Owner) => Promise<T> {
  const made = new WeakMap<Owner, Promise<T>>();
  return (owner) => {
    let promise = made.get(owner);
    if (!promise) {
      promise = make(owner);
      made.set(owner, promise);
      // Nothing replaces a pending promise, so the one failing is the one kept.
      promise.catch(() => made.delete(owner));
    }
    return promise;
  };
}
