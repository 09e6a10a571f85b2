// Runs an async function over items with at most `limit` in flight, results in input order.
// File reads through the FileReader port are latency-bound (each is a round trip to the I/O
// thread pool): a Criterion tree of hundreds of small files reads several times faster this way.
//
// When calls fail, the error thrown is that of the failing item with the lowest index, as if the
// items had run one after another, not whichever failed first in time: a tree with two bad files
// names the same one on every run. After a failure no new item starts; the ones in flight are
// awaited (every item before the first failure has started by then, so the lowest failing index
// is known).
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  /** The lowest index that failed so far (items.length: none), and its error. */
  let failedAt = items.length;
  let failure: unknown;
  const worker = async (): Promise<void> => {
    while (next < items.length && failedAt === items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (error) {
        if (index < failedAt) {
          failedAt = index;
          failure = error;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failedAt < items.length) throw failure;
  return results;
}
