// Head to head: the suites that measure two or more implementations of the same thing in one
// run (`variants:` of a hyperfine or load suite). Each variant but the first is compared with the
// first, benchmark by benchmark, on the same side and round (core/ratios.ts, docs/load-tests.md).
import type { HeadToHead } from "../../core/ratios.ts";
import type { BenchgateConfig } from "../../schemas/config.gen.ts";

/** Of a load endpoint, the metrics a head-to-head table shows: throughput and tail latency. */
const LOAD_METRICS = ["req/s", "p99"] as const;

/** Every (reference, other) pair of every suite with variants, in the config's order. */
export function headToHeadPairs(document: BenchgateConfig | undefined): HeadToHead[] {
  const pairs: HeadToHead[] = [];
  for (const suite of document?.suites ?? []) {
    if (suite.kind !== "hyperfine" && suite.kind !== "load") continue;
    const [reference, ...others] = suite.variants ?? [];
    if (reference === undefined) continue;
    const benchmarks =
      suite.kind === "hyperfine"
        ? suite.commands.map((c) => c.name)
        : suite.endpoints.flatMap((e) => LOAD_METRICS.map((m) => `${e.name} ${m}`));
    for (const other of others)
      for (const benchmark of benchmarks)
        pairs.push({
          suite: suite.name,
          benchmark,
          reference: { variant: reference.name, id: `${reference.name}/${benchmark}` },
          other: { variant: other.name, id: `${other.name}/${benchmark}` },
        });
  }
  return pairs;
}
