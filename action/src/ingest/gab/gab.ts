// github-action-benchmark's custom JSON (`customSmallerIsBetter` / `customBiggerIsBetter`
// tools): `[{name, unit, value, range?, extra?}]`. Which of the two tools a user configured is
// not in the file, and is a fact about the tool anyway: direction comes from the unit
// ("ops/sec" is bigger-is-better, "ns/iter" smaller). One value per benchmark, no samples; it
// is recorded as the median, which is what the most common producer (cargo bench's
// `ns/iter (+/- x)` lines, Criterion's bencher output) reports.
import type { Benchmark } from "../../schemas/summary.gen.ts";
import { type FormatGuess, lookAlike } from "../format-kind.ts";
import {
  type At,
  IdRegistry,
  MAX_VALUE,
  asArray,
  asBenchmarkId,
  asNonNegative,
  asObject,
  asString,
  child,
  fail,
  field,
  hasField,
  isObject,
  rootAt,
} from "../json-guards.ts";
import { normalizeUnit, unknownUnitNote } from "../units.ts";

type Metadata = NonNullable<Benchmark["metadata"]>;

const MAX_ENTRIES = 20_000;

/** Its benchmarks' `source`: the tool's full name, not the kind's ("gab"); ./gab-format.ts declares it. */
export const GAB_SOURCE = "github-action-benchmark";

/**
 * The spread in a `range` string: "± 300", "±300", "+/- 31", "+- 2.5". Returns undefined for
 * anything else (percentages, intervals), which is then kept only as text.
 */
export function parseRange(range: string): number | undefined {
  const match = /^\s*(?:±|\+\/-|\+-)\s*([0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)\s*$/.exec(range);
  if (match === null) return undefined;
  const value = Number(match[1]);
  return Number.isFinite(value) ? value : undefined;
}

function scaled(value: number, factor: number, at: At): number {
  const result = value * factor;
  if (!Number.isFinite(result) || result > MAX_VALUE)
    fail(at, "number is out of range after unit conversion");
  return result;
}

function parseEntry(value: unknown, at: At, suite: string): Benchmark {
  const entry = asObject(value, at, "an object {name, unit, value}");
  for (const key of ["name", "unit", "value"]) {
    if (!hasField(entry, key)) fail(at, `missing "${key}"`);
  }
  const id = asBenchmarkId(field(entry, "name"), child(at, "name"));
  const rawUnit = asString(field(entry, "unit"), child(at, "unit"), 64).trim();
  if (rawUnit === "") fail(child(at, "unit"), "unit is empty");
  const unit = normalizeUnit(rawUnit);
  if (unit.unit.length > 32) fail(child(at, "unit"), "unit is longer than 32 characters");
  const raw = asNonNegative(field(entry, "value"), child(at, "value"));

  const metadata: Metadata = {};
  if (unit.kind === "unknown") metadata["unit_note"] = unknownUnitNote(rawUnit);
  if (unit.unit !== rawUnit) metadata["original_unit"] = rawUnit;
  const estimates: Benchmark["estimates"] = {
    median: scaled(raw, unit.factor, child(at, "value")),
  };
  const range = field(entry, "range");
  if (range !== undefined && range !== null) {
    const text = asString(range, child(at, "range"), 1024);
    metadata["range"] = text;
    const spread = parseRange(text);
    if (spread !== undefined) estimates.std_dev = scaled(spread, unit.factor, child(at, "range"));
  }
  const extra = field(entry, "extra");
  if (extra !== undefined && extra !== null) {
    // Free text (often several lines); kept for display, capped to the schema's length.
    const text = typeof extra === "string" ? extra : JSON.stringify(extra);
    metadata["extra"] = text.length > 1024 ? `${text.slice(0, 1023)}…` : text;
  }
  const benchmark: Benchmark = {
    id,
    suite,
    source: GAB_SOURCE,
    unit: unit.unit,
    direction: unit.direction,
    estimates,
  };
  if (Object.keys(metadata).length > 0) benchmark.metadata = metadata;
  return benchmark;
}

/** Parses github-action-benchmark custom JSON; ids are the `name`s. */
export function parseGab(
  data: unknown,
  source: string,
  options: { readonly suite: string; readonly guess: FormatGuess },
): Benchmark[] {
  const at = rootAt(source);
  if (!Array.isArray(data)) {
    fail(
      at,
      `not github-action-benchmark custom JSON: expected an array of {name, unit, value}${lookAlike(options.guess, data)}`,
    );
  }
  const entries = asArray(data, at);
  if (entries.length === 0) fail(at, "no benchmarks");
  if (entries.length > MAX_ENTRIES) fail(at, `${entries.length} benchmarks, limit ${MAX_ENTRIES}`);
  if (!isObject(entries[0]) || !hasField(entries[0], "value")) {
    fail(
      child(at, 0),
      `not github-action-benchmark custom JSON: expected {name, unit, value}${lookAlike(options.guess, data)}`,
    );
  }
  const ids = new IdRegistry();
  return entries.map((value, i) => {
    const benchmark = parseEntry(value, child(at, i), options.suite);
    ids.add(benchmark.id, child(child(at, i), "name"));
    return benchmark;
  });
}
