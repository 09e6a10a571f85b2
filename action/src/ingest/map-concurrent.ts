// Runs an async function over items with at most `limit` in flight, results in input order.
// File reads through the FileReader port are latency-bound (each is a round trip to the I/O
// thread pool): a Criterion tree of hundreds of small files reads several times faster this way.
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
