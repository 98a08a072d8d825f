/**
 * Does work on items in batches: the first waits for nobody; those that arrive while a batch is in hand go
 * together in the next (at most `maxBatch`). `run` answers one result per item of the batch, in its order
 * (nothing for a batch of writes); each caller's promise settles with its own item's result once the batch is
 * done, or with the batch's failure.
 */
export class Batcher<T, R = void> {
  private queue: Array<{ item: T; resolve: (result: R) => void; reject: (error: unknown) => void }> = [];
  private running = false;

  constructor(
    private readonly run: (batch: T[]) => Promise<readonly R[] | void>,
    private readonly maxBatch: number,
  ) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.run(batch.map((entry) => entry.item));
        batch.forEach((entry, index) => entry.resolve(results?.[index] as R));
      } catch (error) {
        for (const entry of batch) entry.reject(error ?? new Error('a batch failed'));
      }
    }
    this.running = false;
  }
}

/** Reads of single rows by id, those asked for while a read is in hand made together: each caller gets its row or undefined. */
export function readsById<Row extends { id: string }>(
  read: (ids: string[]) => Promise<Row[]>,
  maxBatch = 100,
): Batcher<string, Row | undefined> {
  return new Batcher(async (ids) => {
    const byId = new Map((await read([...new Set(ids)])).map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id));
  }, maxBatch);
}

/**
 * Which of a batch's items an insert that skips conflicts stored, from the keys it returned: not one whose key was
 * there already, nor one whose key repeats an earlier item's in the batch.
 */
export function whichInserted<Key>(items: readonly Key[], returned: readonly Key[], keyOf: (key: Key) => string): boolean[] {
  const stored = new Set(returned.map(keyOf));
  // Set.delete answers true once per key: to the first item that has it.
  return items.map((item) => stored.delete(keyOf(item)));
}

/** One item's share of a batch: its value, or the failure that is its alone. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/** Each item in turn, each with its own outcome. */
export async function settledEach<T, R>(items: T[], each: (item: T) => Promise<R>): Promise<Array<Outcome<R>>> {
  const outcomes: Array<Outcome<R>> = [];
  for (const item of items)
    outcomes.push(
      await each(item).then(
        (value): Outcome<R> => ({ ok: true, value }),
        (error: unknown): Outcome<R> => ({ ok: false, error }),
      ),
    );
  return outcomes;
}

/**
 * Items done together by one statement, `all` (one result per item, in order), in batches as a `Batcher` makes
 * them; when a batch's statement fails, each of its items is tried alone, so that one bad item fails only itself.
 */
export function togetherOrAlone<T, R>(all: (items: T[]) => Promise<readonly R[]>, maxBatch: number): (item: T) => Promise<R> {
  const batcher = new Batcher<T, Outcome<R>>(async (items) => {
    try {
      return (await all(items)).map((value): Outcome<R> => ({ ok: true, value }));
    } catch (error) {
      if (items.length === 1) return [{ ok: false, error }];
      return settledEach(items, async (item) => (await all([item]))[0]!);
    }
  }, maxBatch);
  return async (item) => unwrap(await batcher.add(item));
}
