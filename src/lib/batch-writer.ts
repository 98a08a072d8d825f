/**
 * Writes items in batches: the first waits for nobody; those that arrive while a batch is being written go
 * together in the next (at most `maxBatch`). Each caller's promise settles when its own item is committed.
 */
export class BatchWriter<T> {
  private queue: Array<{ item: T; settle: (error?: unknown) => void }> = [];
  private flushing = false;

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly maxBatch: number,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        await this.write(batch.map((entry) => entry.item));
        for (const entry of batch) entry.settle();
      } catch (error) {
        for (const entry of batch) entry.settle(error ?? new Error('writing a batch failed'));
      }
    }
    this.flushing = false;
  }
}
