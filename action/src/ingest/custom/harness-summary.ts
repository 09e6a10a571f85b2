// The "seed-style harness summary": the summary.json our users' own Rust bench harnesses write
// (seeds/000 "Archive Write Budgets": per-operation p50/p95/p99 plus raw samples). There is no
// upstream format, so this is the tolerant one benchgate accepts (also in docs/formats.md):
//
//   {                                     // top level: a JSON object
//     "suite": "archive_write",           // optional: default suite name
//     "unit": "ms",                       // optional: default unit for every operation
//     "sample_kind": "per_iteration",     // optional: per_iteration | per_process | unknown
//     "operations": [                     // exactly one of operations|stages|results|benchmarks
//       {                                 //   (a list, or a map of name → operation), or
//         "name": "single_message",       //   "scenarios": list/map of {name, <one of those>},
//         "unit": "ms",                   //   giving ids "<scenario>/<operation>"
//         "p50_ms": 7.2, "p95_ms": 11.0, "p99_ms": 12.6,
//         "samples_ms": [7.1, 7.3, …],
//         "count": 200
//       }
//     ]
//   }
//
// Operation name: "name" | "id" | "operation" | "op" | "stage" | "label" (list form), or the map
// key (a name field, if present, must equal it). Statistics: p50 p95 p99 mean (avg) median min
// max std_dev (stddev, std, sd), as `<stat>` or `<stat>_<unit>` ("p95_ms", "mean_us",
// "max_bytes", "mean_ops_per_sec"), at the operation's top level or inside one nested object
// "stats" | "statistics" | "summary" | "percentiles" | "latency" | "latencies" | "timings"
// (which may carry a unit suffix itself: "latency_ms": {"p50": 7.2}). Other percentiles (p90,
// p999) go to metadata. Raw samples: "samples" | "raw_samples" | "raw" | "values" | "times" |
// "durations" | "measurements", with an optional unit suffix ("samples_ms"). Count: "count" |
// "n" | "iterations" | "runs" (or a numeric "samples"). Unit of a value: its key's suffix, else
// the nested object's suffix or "unit", else the operation's "unit", else the top-level "unit".
// Other keys are ignored.
//
// Rejected as ambiguous: two containers (e.g. both "operations" and "stages"), two name fields
// that disagree, a statistic given twice (e.g. "p50" and "p50_ms"), two sample arrays, a value
// with no unit at all, an unrecognized unit suffix ("p50_foo"), values of one operation whose
// units do not normalize to the same unit (ms and bytes), an operation with neither statistics
// nor samples, duplicate operation names.
import type { Benchmark } from "../../schemas/summary.gen.ts";
import {
  OperationValues,
  type UnitContext,
  readStatistics,
  sortedMedian,
  unitField,
} from "./harness-values.ts";
import {
  type At,
  type JsonObject,
  IdRegistry,
  asBenchmarkId,
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
type SampleKind = NonNullable<Benchmark["sample_kind"]>;

export const CONTAINER_KEYS = ["operations", "stages", "results", "benchmarks"] as const;
const NAME_KEYS = ["name", "id", "operation", "op", "stage", "label"] as const;
const SCENARIO_NAME_KEYS = ["name", "scenario", "id", "label"] as const;
const MAX_OPERATIONS = 20_000;
const SAMPLE_KINDS: readonly SampleKind[] = ["per_iteration", "per_process", "unknown"];

/** True when `data` has the top-level shape of a harness summary (a container key). */
export function looksLikeHarnessSummary(data: unknown): boolean {
  return (
    isObject(data) && (CONTAINER_KEYS.some((k) => hasField(data, k)) || hasField(data, "scenarios"))
  );
}

function sampleKindOf(obj: JsonObject, at: At, inherited: SampleKind): SampleKind {
  if (!hasField(obj, "sample_kind")) return inherited;
  const kind = asString(field(obj, "sample_kind"), child(at, "sample_kind"), 32);
  const known = SAMPLE_KINDS.find((k) => k === kind);
  if (known === undefined)
    fail(child(at, "sample_kind"), `must be one of ${SAMPLE_KINDS.join(", ")}`);
  return known;
}

/** The single name of an entry: its map key, or its one name field. */
function entryName(
  obj: JsonObject,
  at: At,
  key: string | undefined,
  nameKeys: readonly string[],
): string {
  let name = key;
  let nameAt = at;
  for (const k of nameKeys) {
    if (!hasField(obj, k)) continue;
    const value = asBenchmarkId(field(obj, k), child(at, k));
    if (name !== undefined && name !== value) {
      fail(child(at, k), `names disagree: ${JSON.stringify(name)} and ${JSON.stringify(value)}`);
    }
    name = value;
    nameAt = child(at, k);
  }
  if (name === undefined) fail(at, `operation has no name (one of ${nameKeys.join(", ")})`);
  return asBenchmarkId(name, nameAt);
}

interface Inherited {
  readonly unit: UnitContext;
  readonly sampleKind: SampleKind;
  readonly suite: string;
  readonly prefix: string;
}

function parseOperation(
  value: unknown,
  at: At,
  key: string | undefined,
  inherited: Inherited,
): Benchmark {
  const obj = asObject(value, at, "an operation object");
  const name = entryName(obj, at, key, NAME_KEYS);
  const id = asBenchmarkId(`${inherited.prefix}${name}`, at);
  const context = unitField(obj, at, inherited.unit);
  const values = new OperationValues();
  readStatistics(obj, at, context, values, false);
  const unit = values.unit;
  if (
    unit === undefined ||
    (Object.keys(values.estimates).length === 0 && values.samples === undefined)
  ) {
    fail(
      at,
      `operation ${JSON.stringify(name)} has no statistics (p50, p95, p99, mean, median, …) and no samples`,
    );
  }
  if (Object.keys(values.estimates).length === 0 && values.samples !== undefined) {
    if (values.samples.length === 0)
      fail(at, `operation ${JSON.stringify(name)} has an empty samples array`);
    values.estimates.median = sortedMedian(values.samples);
  }
  if (unit.unit.length > 32) fail(at, "unit is longer than 32 characters");
  const metadata: Metadata = { ...values.metadata };
  if (values.unitNote !== undefined) metadata["unit_note"] = values.unitNote;
  const benchmark: Benchmark = {
    id,
    suite: inherited.suite,
    source: "custom",
    unit: unit.unit,
    direction: unit.direction,
    estimates: values.estimates,
  };
  if (values.samples !== undefined) {
    benchmark.samples = values.samples;
    benchmark.sample_kind = sampleKindOf(obj, at, inherited.sampleKind);
  }
  if (Object.keys(metadata).length > 0) benchmark.metadata = metadata;
  return benchmark;
}

/** The one container key of `obj`, or an error when there are none or several. */
function containerOf(obj: JsonObject, at: At): string {
  const present = CONTAINER_KEYS.filter((k) => hasField(obj, k));
  if (present.length > 1)
    fail(at, `ambiguous: both ${present.map((k) => `"${k}"`).join(" and ")} are present`);
  const only = present[0];
  if (only === undefined)
    fail(at, `missing the operations list (one of ${CONTAINER_KEYS.join(", ")})`);
  return only;
}

/** Entries of a list or of a name → object map, with their map keys. */
function entriesOf(value: unknown, at: At): { value: unknown; at: At; key: string | undefined }[] {
  if (Array.isArray(value))
    return value.map((v: unknown, i) => ({ value: v, at: child(at, i), key: undefined }));
  const map = asObject(value, at, "a list or a map of operations");
  return Object.keys(map).map((k) => ({ value: map[k], at: child(at, k), key: k }));
}

function parseContainer(
  obj: JsonObject,
  at: At,
  inherited: Inherited,
  out: Benchmark[],
  ids: IdRegistry,
): void {
  const key = containerOf(obj, at);
  const entries = entriesOf(field(obj, key), child(at, key));
  if (entries.length === 0) fail(child(at, key), "no operations");
  if (out.length + entries.length > MAX_OPERATIONS)
    fail(child(at, key), `more than ${MAX_OPERATIONS} operations`);
  for (const entry of entries) {
    const benchmark = parseOperation(entry.value, entry.at, entry.key, inherited);
    ids.add(benchmark.id, entry.at);
    out.push(benchmark);
  }
}

/** Parses a seed-style harness summary (format above). */
export function parseHarnessSummary(
  data: unknown,
  source: string,
  options: { readonly suite?: string | undefined },
): Benchmark[] {
  const at = rootAt(source);
  const root = asObject(data, at, "a harness summary object");
  const fileSuite = hasField(root, "suite")
    ? asString(field(root, "suite"), child(at, "suite"), 256)
    : undefined;
  const inherited: Inherited = {
    unit: unitField(root, at, { raw: undefined }),
    sampleKind: sampleKindOf(root, at, "unknown"),
    suite:
      options.suite ?? (fileSuite !== undefined && fileSuite.trim() !== "" ? fileSuite : "custom"),
    prefix: "",
  };
  const out: Benchmark[] = [];
  const ids = new IdRegistry();
  if (hasField(root, "scenarios")) {
    const present = CONTAINER_KEYS.filter((k) => hasField(root, k));
    if (present.length > 0) fail(at, `ambiguous: both "scenarios" and "${present[0]}" are present`);
    const scenariosAt = child(at, "scenarios");
    const scenarios = entriesOf(field(root, "scenarios"), scenariosAt);
    if (scenarios.length === 0) fail(scenariosAt, "no scenarios");
    for (const scenario of scenarios) {
      const obj = asObject(scenario.value, scenario.at, "a scenario object");
      const name = entryName(obj, scenario.at, scenario.key, SCENARIO_NAME_KEYS);
      parseContainer(
        obj,
        scenario.at,
        {
          ...inherited,
          unit: unitField(obj, scenario.at, inherited.unit),
          sampleKind: sampleKindOf(obj, scenario.at, inherited.sampleKind),
          prefix: `${name}/`,
        },
        out,
        ids,
      );
    }
  } else {
    parseContainer(root, at, inherited, out, ids);
  }
  return out;
}
