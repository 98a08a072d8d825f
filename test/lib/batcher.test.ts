import { expect } from 'chai';
import { Batcher, togetherOrAlone, whichInserted } from '../../src/lib/batcher.js';

describe('Batcher — items that arrive while a batch is in hand go together in the next', () => {
  it('answers each caller its own item’s result, the first batch alone and the rest together', async () => {
    const batches: number[][] = [];
    const squares = new Batcher<number, number>(async (batch) => {
      batches.push(batch);
      await Promise.resolve();
      return batch.map((n) => n * n);
    }, 10);
    const results = await Promise.all([1, 2, 3, 4].map((n) => squares.add(n)));
    expect(results).to.deep.equal([1, 4, 9, 16]);
    expect(batches).to.deep.equal([[1], [2, 3, 4]]);
  });

  it('takes at most maxBatch items at a time', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number>(async (batch) => {
      batches.push(batch);
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.add(n)));
    expect(batches).to.deep.equal([[1], [2, 3], [4, 5]]);
  });

  it('fails every caller of a failed batch, and goes on with the next', async () => {
    const batcher = new Batcher<number, string>(async (batch) => {
      if (batch.includes(2)) throw new Error('refused');
      return batch.map(String);
    }, 10);
    const settled = await Promise.allSettled([1, 2, 3].map((n) => batcher.add(n)));
    expect(settled.map((one) => one.status)).to.deep.equal(['fulfilled', 'rejected', 'rejected']);
    expect(await batcher.add(4)).to.equal('4');
  });
});

describe('togetherOrAlone — one statement for a batch; when it fails, each item alone', () => {
  it('fails only the item its statement cannot take; the others of its batch get their results', async () => {
    const statements: number[][] = [];
    const doubled = togetherOrAlone(async (items: number[]) => {
      statements.push(items);
      await Promise.resolve();
      if (items.includes(3)) throw new Error('3 is refused');
      return items.map((n) => n * 2);
    }, 10);
    const settled = await Promise.allSettled([1, 2, 3, 4].map((n) => doubled(n)));
    expect(settled.map((one) => (one.status === 'fulfilled' ? one.value : (one.reason as Error).message))).to.deep.equal([
      2,
      4,
      '3 is refused',
      8,
    ]);
    expect(statements).to.deep.equal([[1], [2, 3, 4], [2], [3], [4]]);
  });
});

describe('whichInserted — what an insert that skips conflicts stored, from the keys it returned', () => {
  it('is true for the first item of each returned key only: not for a key stored before, nor for a repeat in the batch', () => {
    const items = [{ key: 'a' }, { key: 'b' }, { key: 'a' }, { key: 'c' }];
    const returned = [{ key: 'a' }, { key: 'c' }];
    expect(whichInserted(items, returned, ({ key }) => key)).to.deep.equal([true, false, false, true]);
  });
});
