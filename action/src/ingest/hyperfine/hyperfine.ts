// hyperfine `--export-json` (≥ 1.15; docs/formats.md, "hyperfine") → summary benchmarks.
// Every value is in seconds and becomes ns; each time is one process run (per_process).
// A command with a non-zero or null exit code (only possible with `-i/--ignore-failure`, or a
// signal) measured a failure, so it is an error, never a number.
import type { Benchmark } from "../../schemas/summary.gen.ts";
import {
  type At,
  IdRegistry,
  MAX_VALUE,
  asArray,
  asBenchmarkId,
  asNonNegative,
  asNumberArray,
  asObject,
  asString,
  child,
  fail,
  field,
  hasField,
  jsonType,
  rootAt,
} from "../json-guards.ts";
import { type FormatGuess, lookAlike } from "../format-kind.ts";

type Metadata = NonNullable<Benchmark["metadata"]>;

const NS_PER_S = 1e9;
const MAX_RUNS = 100_000;
const MAX_PARAMETERS = 16;

function seconds(value: unknown, at: At): number {
  const ns = asNonNegative(value, at) * NS_PER_S;
  if (ns > MAX_VALUE) fail(at, "number is out of range");
  return ns;
}

function checkExitCodes(
  result: Readonly<Record<string, unknown>>,
  command: string,
  at: At,
  runs: number | undefined,
): void {
  const codesAt = child(at, "exit_codes");
  if (!hasField(result, "exit_codes")) {
    fail(
      at,
      `command ${JSON.stringify(command)} has no "exit_codes" (hyperfine ≥ 1.15 writes them)`,
    );
  }
  const codes = asArray(field(result, "exit_codes"), codesAt);
  if (codes.length > MAX_RUNS) fail(codesAt, `array has ${codes.length} items, limit ${MAX_RUNS}`);
  if (runs !== undefined && codes.length !== runs) {
    fail(codesAt, `has ${codes.length} exit codes for ${runs} timed runs`);
  }
  const bad: string[] = [];
  codes.forEach((code, i) => {
    if (code === null) bad.push("null (killed by a signal)");
    else if (typeof code !== "number" || !Number.isInteger(code))
      fail(child(codesAt, i), `expected an integer exit code, found ${jsonType(code)}`);
    else if (code !== 0) bad.push(String(code));
  });
  if (bad.length > 0) {
    const shown = bad.length > 10 ? [...bad.slice(0, 10), `… (${bad.length} failed runs)`] : bad;
    fail(
      codesAt,
      `command ${JSON.stringify(command)} failed in ${bad.length} of ${codes.length} runs (exit codes: ${shown.join(", ")}); ` +
        "a failing command is not benchmarked",
    );
  }
}

function parameters(value: unknown, at: At, metadata: Metadata): void {
  if (value === undefined) return;
  const params = asObject(value, at, "an object of parameter values");
  const names = Object.keys(params);
  if (names.length > MAX_PARAMETERS) fail(at, `more than ${MAX_PARAMETERS} parameters`);
  for (const name of names) {
    const where = child(at, name);
    if (name.length > 54) fail(where, "parameter name is longer than 54 characters");
    const raw = params[name];
    metadata[`parameter.${name}`] =
      typeof raw === "number" ? asNonNegative(raw, where) : asString(raw, where, 1024);
  }
}

function parseResult(value: unknown, at: At, suite: string): Benchmark {
  const result = asObject(value, at, "a hyperfine result object");
  if (!hasField(result, "command")) fail(at, 'missing "command" (not a hyperfine result)');
  const commandAt = child(at, "command");
  const raw = field(result, "command");
  if (typeof raw === "string" && raw.length > 1024) {
    fail(
      commandAt,
      "command is longer than 1024 characters; give it a short name with hyperfine --command-name",
    );
  }
  const command = asBenchmarkId(raw, commandAt);

  let samples: number[] | undefined;
  if (hasField(result, "times")) {
    samples = asNumberArray(field(result, "times"), child(at, "times"), MAX_RUNS).map((t, i) =>
      seconds(t, child(child(at, "times"), i)),
    );
    if (samples.length === 0) fail(child(at, "times"), "no timed runs");
  }
  checkExitCodes(result, command, at, samples?.length);

  const estimates: Benchmark["estimates"] = {
    mean: seconds(field(result, "mean"), child(at, "mean")),
    median: seconds(field(result, "median"), child(at, "median")),
    min: seconds(field(result, "min"), child(at, "min")),
    max: seconds(field(result, "max"), child(at, "max")),
  };
  const stddev = field(result, "stddev");
  // null when there was only one run: omit rather than invent 0.
  if (stddev !== null && stddev !== undefined)
    estimates.std_dev = seconds(stddev, child(at, "stddev"));

  const metadata: Metadata = {};
  for (const key of ["user", "system"] as const) {
    const v = field(result, key);
    if (v !== undefined) metadata[`${key}_mean_ns`] = seconds(v, child(at, key));
  }
  const memory = field(result, "memory_usage_byte");
  if (memory !== undefined) {
    const bytes = asNumberArray(memory, child(at, "memory_usage_byte"), MAX_RUNS);
    if (bytes.length > 0) metadata["max_rss_bytes"] = bytes.reduce((a, b) => Math.max(a, b), 0);
  }
  parameters(field(result, "parameters"), child(at, "parameters"), metadata);

  const benchmark: Benchmark = {
    id: command,
    suite,
    source: "hyperfine",
    unit: "ns",
    direction: "smaller_is_better",
    sample_kind: "per_process",
    estimates,
  };
  if (samples !== undefined) benchmark.samples = samples;
  if (Object.keys(metadata).length > 0) benchmark.metadata = metadata;
  return benchmark;
}

/** Parses a hyperfine --export-json document; ids are the commands (or --command-name). */
export function parseHyperfine(
  data: unknown,
  source: string,
  options: { readonly suite: string; readonly guess: FormatGuess },
): Benchmark[] {
  const at = rootAt(source);
  const root = asObject(data, at, "a hyperfine --export-json object");
  if (!hasField(root, "results"))
    fail(
      at,
      `not a hyperfine --export-json file: missing "results"${lookAlike(options.guess, data)}`,
    );
  const resultsAt = child(at, "results");
  const results = asArray(field(root, "results"), resultsAt);
  if (results.length === 0) fail(resultsAt, "no results");
  if (results.length > 20_000) fail(resultsAt, `${results.length} results, limit 20000`);
  const ids = new IdRegistry();
  return results.map((value, i) => {
    const benchmark = parseResult(value, child(resultsAt, i), options.suite);
    ids.add(benchmark.id, child(child(resultsAt, i), "command"));
    return benchmark;
  });
}
