// Criterion.rs → one summary Benchmark, from the parsed benchmark.json, estimates.json and
// sample.json of one benchmark and baseline (docs/formats.md, "Criterion"). Both on-disk
// layouts are accepted: ≥ 0.3.3 (lower-case estimate fields, nullable slope, sample.json
// {sampling_mode, iters, times}) and ≤ 0.3.2 (PascalCase estimate keys, sample.json a 2-tuple
// [[iters…], [times…]]). Values are ns per iteration (WallTime, the only measurement whose
// unit the files imply). Pure: the tree walker reads the files.
import type { Benchmark, Estimate, Throughput } from "../../schemas/summary.gen.ts";
import {
  type At,
  type JsonObject,
  MAX_VALUE,
  asBenchmarkId,
  asArray,
  asNonNegative,
  asObject,
  asOptionalString,
  asString,
  child,
  fail,
  field,
  hasField,
  isObject,
  jsonType,
  rootAt,
} from "../json-guards.ts";
import { parseThroughput } from "./criterion-throughput.ts";

type Metadata = NonNullable<Benchmark["metadata"]>;

/** Criterion's `sample_size` is at least 10 and rarely above a few thousand. */
const MAX_CRITERION_SAMPLES = 100_000;

/** The identifying part of benchmark.json (also critcmp's `criterion_benchmark_v1`). */
interface CriterionId {
  readonly fullId: string;
  readonly groupId: string | undefined;
  readonly functionId: string | undefined;
  readonly valueStr: string | undefined;
  readonly directoryName: string | undefined;
  readonly throughput: readonly Throughput[];
  /** Why some throughput entries were ignored; empty when none were. */
  readonly notes: readonly string[];
}

/** One estimate with its bootstrap confidence interval. */
interface CriterionEstimate {
  readonly point: number;
  readonly lower: number;
  readonly upper: number;
  readonly level: number;
  readonly standardError: number;
}

interface CriterionEstimates {
  readonly layout: "0.3.3+" | "pre-0.3.3";
  readonly mean: CriterionEstimate;
  readonly median: CriterionEstimate;
  readonly stdDev: CriterionEstimate;
  readonly medianAbsDev: CriterionEstimate | undefined;
  /** Only in Linear sampling mode. */
  readonly slope: CriterionEstimate | undefined;
}

interface CriterionSample {
  readonly layout: "0.3.3+" | "pre-0.3.3";
  /** "Linear" or "Flat"; pre-0.3.3 files do not say (only Linear existed then). */
  readonly samplingMode: string | undefined;
  readonly iters: readonly number[];
  readonly times: readonly number[];
}

/** benchmark.json, or critcmp's criterion_benchmark_v1 (same fields without `title`). */
export function parseCriterionId(value: unknown, at: At): CriterionId {
  const obj = asObject(value, at, "a Criterion benchmark id object");
  if (!hasField(obj, "full_id")) fail(at, 'missing "full_id" (not a Criterion benchmark.json)');
  const fullId = asBenchmarkId(field(obj, "full_id"), child(at, "full_id"));
  const { throughput, notes } = parseThroughput(field(obj, "throughput"), child(at, "throughput"));
  return {
    fullId,
    groupId: asOptionalString(field(obj, "group_id"), child(at, "group_id")),
    functionId: asOptionalString(field(obj, "function_id"), child(at, "function_id")),
    valueStr: asOptionalString(field(obj, "value_str"), child(at, "value_str")),
    directoryName: asOptionalString(field(obj, "directory_name"), child(at, "directory_name")),
    throughput,
    notes,
  };
}

/**
 * `obj[key]` checked by asNonNegative, whose JSON pointer is made only when the check fails: an
 * estimates.json has 25 numbers, a 10,000-baseline tree a quarter of a million.
 */
function nonNegativeField(obj: JsonObject, key: string, at: () => At): number {
  const value = field(obj, key);
  return typeof value === "number" && value >= 0 && value <= MAX_VALUE
    ? value
    : asNonNegative(value, child(at(), key));
}

function parseEstimate(value: unknown, at: At): CriterionEstimate {
  const obj = asObject(value, at, "a Criterion estimate object");
  const ciAt = (): At => child(at, "confidence_interval");
  const ciRaw = field(obj, "confidence_interval");
  const ci = isObject(ciRaw) ? ciRaw : asObject(ciRaw, ciAt());
  const level = nonNegativeField(ci, "confidence_level", ciAt);
  if (level <= 0 || level >= 1) {
    fail(
      child(ciAt(), "confidence_level"),
      `confidence level must be between 0 and 1 (found ${level})`,
    );
  }
  const lower = nonNegativeField(ci, "lower_bound", ciAt);
  const upper = nonNegativeField(ci, "upper_bound", ciAt);
  if (lower > upper) fail(ciAt(), `lower_bound ${lower} is above upper_bound ${upper}`);
  return {
    point: nonNegativeField(obj, "point_estimate", () => at),
    lower,
    upper,
    level,
    standardError: nonNegativeField(obj, "standard_error", () => at),
  };
}

const CURRENT_KEYS = {
  mean: "mean",
  median: "median",
  stdDev: "std_dev",
  mad: "median_abs_dev",
  slope: "slope",
};
const LEGACY_KEYS = {
  mean: "Mean",
  median: "Median",
  stdDev: "StdDev",
  mad: "MedianAbsDev",
  slope: "Slope",
};

/** estimates.json (either key style), or critcmp's criterion_estimates_v1. */
export function parseCriterionEstimates(value: unknown, at: At): CriterionEstimates {
  const obj = asObject(value, at, "a Criterion estimates object");
  const legacy = hasField(obj, "Mean") || hasField(obj, "Median");
  if (legacy && (hasField(obj, "mean") || hasField(obj, "median"))) {
    fail(at, 'estimates mix the ≤ 0.3.2 ("Mean") and ≥ 0.3.3 ("mean") key styles');
  }
  const keys = legacy ? LEGACY_KEYS : CURRENT_KEYS;
  const required = (key: string): CriterionEstimate => {
    if (!hasField(obj, key)) fail(at, `missing estimate "${key}" (not a Criterion estimates.json)`);
    return parseEstimate(field(obj, key), child(at, key));
  };
  const optional = (key: string): CriterionEstimate | undefined => {
    const raw = field(obj, key);
    return raw === undefined || raw === null ? undefined : parseEstimate(raw, child(at, key));
  };
  return {
    layout: legacy ? "pre-0.3.3" : "0.3.3+",
    mean: required(keys.mean),
    median: required(keys.median),
    stdDev: required(keys.stdDev),
    medianAbsDev: optional(keys.mad),
    slope: optional(keys.slope),
  };
}

/**
 * asNumberArray's checks (each value a number in [0, 1e300]) without making a JSON pointer for
 * every value: one is made only for the value that fails. A tree of 10,000 sample files holds
 * two million values, and making a pointer string for each cost more than checking it.
 */
function sampleValues(value: unknown, at: At): number[] {
  const array = asArray(value, at, "an array of numbers");
  if (array.length > MAX_CRITERION_SAMPLES)
    fail(at, `array has ${array.length} items, limit ${MAX_CRITERION_SAMPLES}`);
  const values = new Array<number>(array.length);
  for (let i = 0; i < array.length; i++) {
    const item = array[i];
    values[i] =
      typeof item === "number" && item >= 0 && item <= MAX_VALUE
        ? item
        : asNonNegative(item, child(at, i));
  }
  return values;
}

/** sample.json: `{sampling_mode, iters, times}` (≥ 0.3.3) or `[[iters…], [times…]]` (≤ 0.3.2). */
function parseCriterionSample(value: unknown, at: At): CriterionSample {
  let layout: CriterionSample["layout"];
  let samplingMode: string | undefined;
  let itersRaw: unknown;
  let timesRaw: unknown;
  let itersAt: At;
  let timesAt: At;
  if (Array.isArray(value)) {
    if (value.length !== 2)
      fail(at, `expected [iters, times] (2 arrays), found ${value.length} items`);
    layout = "pre-0.3.3";
    [itersRaw, timesRaw] = value as [unknown, unknown];
    itersAt = child(at, 0);
    timesAt = child(at, 1);
  } else if (isObject(value)) {
    layout = "0.3.3+";
    const obj: JsonObject = value;
    samplingMode = asString(field(obj, "sampling_mode"), child(at, "sampling_mode"), 32);
    itersRaw = field(obj, "iters");
    timesRaw = field(obj, "times");
    itersAt = child(at, "iters");
    timesAt = child(at, "times");
  } else {
    fail(at, `expected a Criterion sample (object or [iters, times]), found ${jsonType(value)}`);
  }
  const iters = sampleValues(itersRaw, itersAt);
  const times = sampleValues(timesRaw, timesAt);
  if (iters.length !== times.length) {
    fail(at, `iters has ${iters.length} values but times has ${times.length}`);
  }
  if (iters.length === 0) fail(itersAt, "no samples");
  iters.forEach((n, i) => {
    if (n <= 0) fail(child(itersAt, i), `iteration count must be positive (found ${n})`);
  });
  return { layout, samplingMode, iters, times };
}

/** times[j] / iters[j]: the mean time of one iteration within sample j (ns). */
function perIterationSamples(sample: CriterionSample, at: At): number[] {
  return sample.times.map((time, j) => {
    const value = time / (sample.iters[j] ?? 1);
    if (!Number.isFinite(value) || value > MAX_VALUE)
      fail(child(at, j), `per-iteration time is out of range`);
    return value;
  });
}

function withInterval(e: CriterionEstimate): Estimate {
  return { point: e.point, lower: e.lower, upper: e.upper, level: e.level };
}

/** Summary estimates from Criterion's; slope and MAD (no summary slot) go to metadata. */
export function criterionEstimateFields(estimates: CriterionEstimates): {
  estimates: Benchmark["estimates"];
  metadata: Metadata;
} {
  const metadata: Metadata = {};
  if (estimates.slope !== undefined) {
    metadata["slope"] = estimates.slope.point;
    metadata["slope_lower"] = estimates.slope.lower;
    metadata["slope_upper"] = estimates.slope.upper;
  }
  if (estimates.medianAbsDev !== undefined)
    metadata["median_abs_dev"] = estimates.medianAbsDev.point;
  return {
    estimates: {
      median: withInterval(estimates.median),
      mean: withInterval(estimates.mean),
      std_dev: withInterval(estimates.stdDev),
    },
    metadata,
  };
}

/** Metadata common to Criterion-derived benchmarks (ids' parts, ignored throughput notes). */
export function criterionIdMetadata(id: CriterionId): Metadata {
  const metadata: Metadata = {};
  if (id.groupId !== undefined) metadata["group_id"] = id.groupId;
  if (id.functionId !== undefined) metadata["function_id"] = id.functionId;
  if (id.valueStr !== undefined) metadata["value_str"] = id.valueStr;
  if (id.notes.length > 0) metadata["throughput_note"] = id.notes.join("; ").slice(0, 1024);
  return metadata;
}

export interface CriterionDocuments {
  readonly benchmark: unknown;
  readonly estimates: unknown;
  readonly sample: unknown;
}

/** File names for error messages, one per document. */
interface CriterionSources {
  readonly benchmark: string;
  readonly estimates: string;
  readonly sample: string;
}

/** One Criterion benchmark (one baseline directory) as a summary Benchmark. */
export function criterionBenchmark(
  docs: CriterionDocuments,
  sources: CriterionSources,
  options: { readonly suite: string; readonly baseline?: string },
): Benchmark {
  const id = parseCriterionId(docs.benchmark, rootAt(sources.benchmark));
  const estimates = parseCriterionEstimates(docs.estimates, rootAt(sources.estimates));
  const sampleAt = rootAt(sources.sample);
  const sample = parseCriterionSample(docs.sample, sampleAt);
  const samplesAt = sample.layout === "pre-0.3.3" ? child(sampleAt, 1) : child(sampleAt, "times");
  const samples = perIterationSamples(sample, samplesAt);
  const fields = criterionEstimateFields(estimates);
  const metadata: Metadata = {
    ...criterionIdMetadata(id),
    ...fields.metadata,
    // Only Linear existed before 0.3.3.
    sampling_mode: sample.samplingMode ?? "Linear",
    criterion_layout: estimates.layout,
  };
  if (options.baseline !== undefined) metadata["baseline"] = options.baseline;
  const benchmark: Benchmark = {
    id: id.fullId,
    suite: options.suite,
    source: "criterion",
    unit: "ns",
    direction: "smaller_is_better",
    sample_kind: "per_iteration",
    samples,
    estimates: fields.estimates,
    metadata,
  };
  if (id.throughput.length > 0) benchmark.throughput = [...id.throughput];
  return benchmark;
}
