// Which of a gungraun (or iai-callgrind) profile's metrics benchgate reads, and what it calls
// them (docs/formats.md, "gungraun"). The harness names its metrics after Valgrind's events
// (`Ir`, `L1hits`, `TotalBytes`); a summary's metric is snake_case (schemas/summary.v1.schema.json).
// Read: the integer counts a person budgets or watches. Left out: the rates (floats derived from
// the counts), the raw reads, writes and miss counters (`Dr`, `D1mr`, … which the hit counts
// below already sum up), the branch and system-call events, DHAT's lifetimes, maxima and ad-hoc
// units, and error contexts and suppressions.

/** How one harness metric becomes a summary benchmark. */
export interface MetricSpec {
  /** The summary's `metric`. */
  readonly metric: string;
  readonly unit: string;
}

/** The metric that makes a benchmark's primary entry: instructions executed. */
export const PRIMARY_METRIC = "instructions";

/** Callgrind and Cachegrind (the same event names in summary versions 6 and 7). */
const CACHE_METRICS: ReadonlyMap<string, MetricSpec> = new Map([
  ["Ir", { metric: PRIMARY_METRIC, unit: "instructions" }],
  ["EstimatedCycles", { metric: "estimated_cycles", unit: "cycles" }],
  ["L1hits", { metric: "l1_hits", unit: "hits" }],
  ["LLhits", { metric: "ll_hits", unit: "hits" }],
  ["RamHits", { metric: "ram_hits", unit: "hits" }],
  ["TotalRW", { metric: "total_rw", unit: "accesses" }],
]);

/** DHAT. Sizes are in bytes, normalized to "B" like every byte size benchgate reads. */
const DHAT_METRICS: ReadonlyMap<string, MetricSpec> = new Map([
  ["TotalBytes", { metric: "total_bytes", unit: "B" }],
  ["TotalBlocks", { metric: "total_blocks", unit: "blocks" }],
  ["AtTGmaxBytes", { metric: "at_t_gmax_bytes", unit: "B" }],
  ["AtTGmaxBlocks", { metric: "at_t_gmax_blocks", unit: "blocks" }],
  ["AtTEndBytes", { metric: "at_t_end_bytes", unit: "B" }],
  ["AtTEndBlocks", { metric: "at_t_end_blocks", unit: "blocks" }],
  ["ReadsBytes", { metric: "reads_bytes", unit: "B" }],
  ["WritesBytes", { metric: "writes_bytes", unit: "B" }],
]);

/** The tools that only report errors: their `Errors` count. */
function errorMetrics(tool: string): ReadonlyMap<string, MetricSpec> {
  return new Map([["Errors", { metric: `${tool.toLowerCase()}_errors`, unit: "errors" }]]);
}

/** What benchgate reads of one tool's profile. */
export interface ToolSpec {
  /**
   * Version 6 wraps a profile's metrics in an object named for their kind (`{"Dhat": {…}}`,
   * `{"ErrorTool": {…}}`); version 7 writes the metrics map directly.
   */
  readonly v6Key: string;
  /** By the harness's metric name. */
  readonly metrics: ReadonlyMap<string, MetricSpec>;
}

/** The tools read, by a profile's `tool` as both versions write it; other tools are skipped. */
export const TOOLS: ReadonlyMap<string, ToolSpec> = new Map([
  ["Callgrind", { v6Key: "Callgrind", metrics: CACHE_METRICS }],
  ["Cachegrind", { v6Key: "Cachegrind", metrics: CACHE_METRICS }],
  ["DHAT", { v6Key: "Dhat", metrics: DHAT_METRICS }],
  ["Memcheck", { v6Key: "ErrorTool", metrics: errorMetrics("Memcheck") }],
  ["Helgrind", { v6Key: "ErrorTool", metrics: errorMetrics("Helgrind") }],
  ["DRD", { v6Key: "ErrorTool", metrics: errorMetrics("DRD") }],
]);
