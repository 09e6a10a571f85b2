// One load-generator run against one endpoint → its summary entries (docs/formats.md, "Load
// generators"): `E req/s`, `E p50`, `E p95`, `E p99`, `E p99.9` and `E errors`. The oha, k6 and
// vegeta adapters each turn their tool's file into a LoadRun; this makes the entries, so the
// three give the same ids, units and flags. It lives in ingest/ itself, beside the three
// adapters that share it, not inside one of them. Pure.
import type { Benchmark } from "../schemas/summary.gen.ts";
import { nameProblem } from "./benchmark-name.ts";
import type { FormatGuess } from "./format-kind.ts";
import { type At, MAX_VALUE, asNonNegative, fail, jsonType } from "./json-guards.ts";
import { MiB } from "./read-json.ts";

/**
 * Largest load-generator file read. The summaries are a few KB, but their error lists are not
 * bounded by the tool: vegeta keeps every distinct error text, and a reset connection's text
 * names its local port, so a long run against a failing server can list thousands.
 */
export const MAX_LOAD_FILE_BYTES = 16 * MiB;

/**
 * The longest run a load-generator file may describe: a year. Nobody loads an endpoint for longer,
 * so a longer run is a broken file (a rate of 1e-300 req/s, a total of 1e299 s), refused here
 * rather than carried into req/s and `duration_s` as a number no statistic can use.
 */
export const MAX_RUN_SECONDS = 366 * 24 * 3600;

/** The endpoint's name when `--name` is not given. */
const DEFAULT_ENDPOINT = "load";

/** The tools whose files give these entries: each entry's `source`. */
type LoadTool = Extract<Benchmark["source"], "oha" | "k6" | "vegeta">;

/** One latency percentile as read, in ns, with where it was read (for the order check). */
interface Percentile {
  readonly ns: number;
  readonly at: At;
}

/** The latency percentiles a tool gave; p99.9 is left out by a tool that has none. */
export interface Latencies {
  readonly p50: Percentile;
  readonly p95: Percentile;
  readonly p99: Percentile;
  readonly p99_9?: Percentile;
}

/** What one run measured, in counts of requests and seconds, before it becomes entries. */
interface LoadRun {
  /** Requests sent; requests the tool itself cancelled when its duration ran out are not. */
  readonly requests: number;
  /** Responses with a 2xx status. */
  readonly successes: number;
  /** Transport errors (refused, reset, timed out); undefined when the tool counts them with non-2xx. */
  readonly errors?: number;
  /** Responses that are not 2xx; undefined when the tool counts them with transport errors. */
  readonly non2xx?: number;
  /** Seconds the run lasted: the time req/s is counted over. */
  readonly durationS: number;
  /** Undefined when no request succeeded: there is no latency of a success to report. */
  readonly latencies?: Latencies;
}

/** What the oha, k6 and vegeta adapters are given besides the parsed file. */
export interface LoadFileOptions {
  /** Suite of the entries; default: the tool's name. */
  readonly suite: string | undefined;
  /** E, the endpoint's name, the first word of every id; default "load". */
  readonly name: string | undefined;
  readonly guess: FormatGuess;
}

/** A count of requests: an integer ≥ 0 that a double holds exactly. */
export function asCount(value: unknown, at: At): number {
  if (typeof value !== "number")
    fail(at, `expected a whole number of requests, found ${jsonType(value)}`);
  if (!Number.isInteger(value)) fail(at, `expected a whole number of requests, found ${value}`);
  if (value < 0) fail(at, `must not be negative (found ${value})`);
  if (value > Number.MAX_SAFE_INTEGER) fail(at, `count ${value} is larger than 2^53 - 1`);
  return value;
}

/** A time in the tool's unit (`nsPerUnit` ns each) as ns. */
export function asNs(value: unknown, at: At, nsPerUnit: number): Percentile {
  const ns = asNonNegative(value, at) * nsPerUnit;
  if (ns > MAX_VALUE) fail(at, "number is out of range");
  return { ns, at };
}

/** Percentiles must not decrease: p50 ≤ p95 ≤ p99 ≤ p99.9; a file where they do was not written by the tool. */
function checkOrder(latencies: Latencies): void {
  const order = [
    ["p50", latencies.p50],
    ["p95", latencies.p95],
    ["p99", latencies.p99],
    ["p99.9", latencies.p99_9],
  ] as const;
  for (let i = 1; i < order.length; i++) {
    const [lowName, low] = order[i - 1] as (typeof order)[number];
    const [name, high] = order[i] as (typeof order)[number];
    if (low !== undefined && high !== undefined && high.ns < low.ns)
      fail(high.at, `${name} (${high.ns} ns) is below ${lowName} (${low.ns} ns)`);
  }
}

function ratio(numerator: number, denominator: number, at: At, what: string): number {
  const value = numerator / denominator;
  if (!Number.isFinite(value) || value > MAX_VALUE) fail(at, `${what} is out of range`);
  return value;
}

/** The entries of one endpoint's run, in the order of docs/formats.md's table. `at` is the file. */
export function loadEntries(
  run: LoadRun,
  at: At,
  tool: LoadTool,
  options: LoadFileOptions,
): Benchmark[] {
  const endpoint = options.name ?? DEFAULT_ENDPOINT;
  const suite = options.suite ?? tool;
  const problem = nameProblem(endpoint);
  if (problem !== undefined)
    fail(
      at,
      `the endpoint's name ${JSON.stringify(endpoint.slice(0, 64))} is not usable: ${problem}`,
    );
  if (run.requests === 0)
    fail(at, "the run sent no request: there is no rate or latency to report");
  if (!(run.durationS > 0)) fail(at, `the run lasted ${run.durationS} s: no rate can be derived`);
  if (run.durationS > MAX_RUN_SECONDS)
    fail(at, `the run lasted ${run.durationS} s, more than a year: not a load test's length`);
  if (run.latencies !== undefined) checkOrder(run.latencies);

  const failed = run.requests - run.successes;
  const metadata: NonNullable<Benchmark["metadata"]> = {
    requests: run.requests,
    successes: run.successes,
    ...(run.errors === undefined ? {} : { errors: run.errors }),
    ...(run.non2xx === undefined ? {} : { non_2xx: run.non2xx }),
    duration_s: run.durationS,
  };

  const entry = (name: string, unit: string, value: number): Benchmark => ({
    id: `${endpoint} ${name}`,
    suite,
    source: tool,
    unit,
    direction: unit === "req/s" ? "bigger_is_better" : "smaller_is_better",
    estimates: { median: value },
  });
  const secondary = (benchmark: Benchmark, metric: string): Benchmark => ({
    ...benchmark,
    metric,
    secondary: true,
  });

  const entries: Benchmark[] = [
    {
      ...entry("req/s", "req/s", ratio(run.successes, run.durationS, at, "req/s")),
      metadata,
    },
  ];
  const latencies = run.latencies;
  if (latencies !== undefined) {
    entries.push(entry("p50", "ns", latencies.p50.ns));
    entries.push(secondary(entry("p95", "ns", latencies.p95.ns), "p95"));
    entries.push(entry("p99", "ns", latencies.p99.ns));
    if (latencies.p99_9 !== undefined)
      entries.push(secondary(entry("p99.9", "ns", latencies.p99_9.ns), "p99_9"));
  }
  entries.push(secondary(entry("errors", "%", (100 * failed) / run.requests), "error_rate"));
  return entries;
}
