// When a file is handed to the wrong adapter ("ingest critcmp hyperfine.json"), say what the
// file looks like instead of only what it lacks.
import { field, hasField, isObject } from "./json-guards.ts";

/** What kind of benchmark file `data` resembles, or undefined. Looks only at the top level. */
export function guessFormat(data: unknown): string | undefined {
  if (Array.isArray(data)) {
    const first: unknown = data[0];
    if (
      isObject(first) &&
      hasField(first, "name") &&
      hasField(first, "value") &&
      hasField(first, "unit")
    ) {
      return "github-action-benchmark custom JSON (use: ingest gab)";
    }
    if (data.length === 2 && Array.isArray(data[0]) && Array.isArray(data[1])) {
      return "a Criterion ≤ 0.3.2 sample.json (use: ingest criterion DIR)";
    }
    return undefined;
  }
  if (!isObject(data)) return undefined;
  if (hasField(data, "schema_version") && hasField(data, "benchmarks"))
    return "a benchgate summary.json (use: ingest custom)";
  if (Array.isArray(field(data, "results")) && hasField(data, "results")) {
    const first: unknown = (field(data, "results") as unknown[])[0];
    if (isObject(first) && hasField(first, "command"))
      return "hyperfine --export-json output (use: ingest hyperfine)";
  }
  const benchmarks = field(data, "benchmarks");
  if (isObject(benchmarks)) {
    const first = Object.values(benchmarks)[0];
    if (isObject(first) && hasField(first, "criterion_estimates_v1"))
      return "critcmp --export output (use: ingest critcmp)";
  }
  if (hasField(data, "full_id")) return "a Criterion benchmark.json (use: ingest criterion DIR)";
  if (hasField(data, "mean") && hasField(data, "median") && isObject(field(data, "mean"))) {
    return "a Criterion estimates.json (use: ingest criterion DIR)";
  }
  if (hasField(data, "sampling_mode") && hasField(data, "iters"))
    return "a Criterion sample.json (use: ingest criterion DIR)";
  return undefined;
}

/** " (it looks like …)" or "". */
export function formatHint(data: unknown): string {
  const guess = guessFormat(data);
  return guess === undefined ? "" : ` (it looks like ${guess})`;
}
