// Reading the values of one harness-summary operation (format: docs/formats.md): which
// keys are statistics or samples, which unit each value is in, and the checks that make an
// ambiguous operation an error instead of a guess.
import type { Benchmark } from "../../schemas/summary.gen.ts";
import {
  type At,
  type JsonObject,
  MAX_VALUE,
  asNonNegative,
  asNumberArray,
  asObject,
  asString,
  child,
  fail,
  field,
  hasField,
  isObject,
} from "../json-guards.ts";
import { type NormalizedUnit, normalizeUnit, unknownUnitNote } from "../units.ts";

type Metadata = NonNullable<Benchmark["metadata"]>;
type EstimateKey = keyof Benchmark["estimates"];

const NESTED = /^(stats|statistics|summary|percentiles|latency|latencies|timings)(?:_(.+))?$/i;
const STAT =
  /^(p50|p95|p99|mean|avg|median|min|max|std_dev|stddev|std|sd|p[0-9]{1,2}(?:\.[0-9]+)?|p9{3,5})(?:_(.+))?$/i;
const SAMPLES = /^(samples|raw_samples|raw|values|times|durations|measurements)(?:_(.+))?$/i;
const COUNT_KEYS: ReadonlySet<string> = new Set(["count", "n", "iterations", "runs"]);
const STAT_ALIASES: Readonly<Record<string, EstimateKey>> = {
  p50: "p50",
  p95: "p95",
  p99: "p99",
  mean: "mean",
  avg: "mean",
  median: "median",
  min: "min",
  max: "max",
  std_dev: "std_dev",
  stddev: "std_dev",
  std: "std_dev",
  sd: "std_dev",
};
const MAX_SAMPLES = 100_000;

export interface UnitContext {
  /** The unit text that applies when a key has no suffix, and where it was declared. */
  readonly raw: string | undefined;
}

export function unitField(obj: JsonObject, at: At, inherited: UnitContext): UnitContext {
  if (!hasField(obj, "unit")) return inherited;
  const raw = asString(field(obj, "unit"), child(at, "unit"), 64).trim();
  if (raw === "") fail(child(at, "unit"), "unit is empty");
  return { raw };
}

function suffixUnit(suffix: string, at: At): NormalizedUnit {
  const unit = normalizeUnit(suffix.replaceAll("_", " "));
  if (unit.kind === "unknown") fail(at, `unrecognized unit suffix "_${suffix}" in key`);
  return unit;
}

/** Collects converted values of one operation, checking that all share one normalized unit. */
export class OperationValues {
  readonly estimates: Benchmark["estimates"] = {};
  readonly metadata: Metadata = {};
  samples: number[] | undefined;
  #unit: NormalizedUnit | undefined;
  #unitNote: string | undefined;
  readonly #seen = new Map<string, string>();

  get unit(): NormalizedUnit | undefined {
    return this.#unit;
  }

  get unitNote(): string | undefined {
    return this.#unitNote;
  }

  resolve(suffix: string | undefined, context: UnitContext, at: At): NormalizedUnit {
    let unit: NormalizedUnit;
    if (suffix !== undefined) unit = suffixUnit(suffix, at);
    else if (context.raw !== undefined) {
      unit = normalizeUnit(context.raw);
      if (unit.kind === "unknown") this.#unitNote = unknownUnitNote(context.raw);
    } else {
      fail(at, 'value has no unit: add "unit" or a unit suffix to the key (e.g. "p50_ms")');
    }
    if (this.#unit === undefined) this.#unit = unit;
    else if (this.#unit.unit !== unit.unit || this.#unit.direction !== unit.direction) {
      fail(at, `mixes units "${this.#unit.unit}" and "${unit.unit}" in one operation`);
    }
    return unit;
  }

  claim(name: string, at: At): void {
    const first = this.#seen.get(name);
    if (first !== undefined) fail(at, `${name} is given twice (also at ${first})`);
    this.#seen.set(name, at.path);
  }

  convert(value: number, unit: NormalizedUnit, at: At): number {
    const result = value * unit.factor;
    if (!Number.isFinite(result) || result > MAX_VALUE)
      fail(at, "number is out of range after unit conversion");
    return result;
  }
}

export function readStatistics(
  obj: JsonObject,
  at: At,
  context: UnitContext,
  values: OperationValues,
  nested: boolean,
): void {
  for (const key of Object.keys(obj)) {
    const where = child(at, key);
    const raw = obj[key];
    const stat = STAT.exec(key);
    if (stat !== null) {
      const name = (stat[1] ?? "").toLowerCase();
      const estimateKey = STAT_ALIASES[name];
      const unit = values.resolve(stat[2], context, where);
      const value = values.convert(asNonNegative(raw, where), unit, where);
      if (estimateKey !== undefined) {
        values.claim(estimateKey, where);
        values.estimates[estimateKey] = value;
      } else {
        values.claim(name, where);
        values.metadata[name] = value;
      }
      continue;
    }
    if (nested) continue;
    const samples = SAMPLES.exec(key);
    if (samples !== null) {
      if (typeof raw === "number" && samples[2] === undefined) {
        values.claim("count", where);
        values.metadata["count"] = asNonNegative(raw, where);
        continue;
      }
      values.claim("samples", where);
      const unit = values.resolve(samples[2], context, where);
      values.samples = asNumberArray(raw, where, MAX_SAMPLES).map((v, i) =>
        values.convert(v, unit, child(where, i)),
      );
      continue;
    }
    if (COUNT_KEYS.has(key.toLowerCase())) {
      values.claim("count", where);
      values.metadata["count"] = asNonNegative(raw, where);
      continue;
    }
    const group = NESTED.exec(key);
    if (group !== null && isObject(raw)) {
      const inner = asObject(raw, where);
      let innerContext = unitField(inner, where, context);
      if (group[2] !== undefined) {
        if (hasField(inner, "unit"))
          fail(where, `unit given both as suffix "_${group[2]}" and as "unit"`);
        suffixUnit(group[2], where);
        innerContext = { raw: group[2].replaceAll("_", " ") };
      }
      readStatistics(inner, where, innerContext, values, true);
    }
  }
}

export function sortedMedian(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
