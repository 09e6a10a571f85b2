// `critcmp --export NAME` JSON (docs/formats.md, "critcmp") → summary benchmarks. critcmp
// copies Criterion's benchmark.json and estimates.json verbatim, keyed by full_id, but keeps no
// raw samples: these benchmarks carry estimates (with bootstrap CIs) only.
import type { Benchmark } from "../../schemas/summary.gen.ts";
import {
  criterionEstimateFields,
  criterionIdMetadata,
  parseCriterionEstimates,
  parseCriterionId,
} from "../criterion/criterion.ts";
import { type FormatGuess, lookAlike } from "../format-kind.ts";
import {
  IdRegistry,
  asObject,
  asString,
  child,
  fail,
  field,
  hasField,
  isObject,
  rootAt,
} from "../json-guards.ts";

type Metadata = NonNullable<Benchmark["metadata"]>;

const MAX_BENCHMARKS = 20_000;

/** Parses a critcmp export; ids are Criterion full_ids. */
export function parseCritcmp(
  data: unknown,
  source: string,
  options: { readonly suite: string; readonly guess: FormatGuess },
): Benchmark[] {
  const at = rootAt(source);
  const root = asObject(data, at, "a critcmp --export object");
  if (!hasField(root, "benchmarks") || !isObject(field(root, "benchmarks"))) {
    fail(
      at,
      `not a critcmp --export file: missing "benchmarks" object${lookAlike(options.guess, data)}`,
    );
  }
  const baseline = hasField(root, "name")
    ? asString(field(root, "name"), child(at, "name"), 256)
    : undefined;
  const mapAt = child(at, "benchmarks");
  const map = asObject(field(root, "benchmarks"), mapAt);
  const keys = Object.keys(map);
  if (keys.length === 0) fail(mapAt, "no benchmarks");
  if (keys.length > MAX_BENCHMARKS)
    fail(mapAt, `${keys.length} benchmarks, limit ${MAX_BENCHMARKS}`);

  const ids = new IdRegistry();
  return keys.map((key) => {
    const entryAt = child(mapAt, key);
    const entry = asObject(map[key], entryAt, "a critcmp benchmark object");
    for (const required of ["criterion_benchmark_v1", "criterion_estimates_v1"]) {
      if (!hasField(entry, required)) fail(entryAt, `missing "${required}"`);
    }
    const idAt = child(entryAt, "criterion_benchmark_v1");
    const id = parseCriterionId(field(entry, "criterion_benchmark_v1"), idAt);
    // critcmp keys the map by full_id; a different key means the file was edited by hand.
    if (id.fullId !== key) {
      fail(
        child(idAt, "full_id"),
        `full_id ${JSON.stringify(id.fullId)} does not match its key ${JSON.stringify(key)}`,
      );
    }
    ids.add(id.fullId, child(idAt, "full_id"));
    const estimates = parseCriterionEstimates(
      field(entry, "criterion_estimates_v1"),
      child(entryAt, "criterion_estimates_v1"),
    );
    const fields = criterionEstimateFields(estimates);
    const metadata: Metadata = {
      ...criterionIdMetadata(id),
      ...fields.metadata,
      criterion_layout: estimates.layout,
    };
    const entryBaseline = field(entry, "baseline");
    const name =
      entryBaseline === undefined
        ? baseline
        : asString(entryBaseline, child(entryAt, "baseline"), 256);
    if (name !== undefined) metadata["baseline"] = name;
    const benchmark: Benchmark = {
      id: id.fullId,
      suite: options.suite,
      source: "critcmp",
      unit: "ns",
      direction: "smaller_is_better",
      estimates: fields.estimates,
      metadata,
    };
    if (id.throughput.length > 0) benchmark.throughput = [...id.throughput];
    return benchmark;
  });
}
