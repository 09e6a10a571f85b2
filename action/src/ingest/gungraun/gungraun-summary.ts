// One gungraun (summary version 7) or iai-callgrind (version 6) `summary.json` → summary
// benchmarks (docs/formats.md, "gungraun"). Both versions hold, per Valgrind tool run (a
// "profile"), the totals over its parts; a total holds the current run's value ("new") and,
// after an earlier run, that run's ("old"). Only "new" is read: the earlier run is another
// commit's, and benchgate pairs sides itself. Version 7 writes a value as a bare number;
// version 6 wraps it (`{"Left": v}` new only, `{"Right": v}` old only, `{"Both": [new, old]}`,
// each v `{"Int": n}` or `{"Float": x}`). Pure; every check names the file and JSON pointer.
import type { Benchmark } from "../../schemas/summary.gen.ts";
import {
  type At,
  type JsonObject,
  MAX_ID_LENGTH,
  asArray,
  asObject,
  asString,
  child,
  fail,
  field,
  hasField,
  jsonType,
  rootAt,
} from "../json-guards.ts";
import { type MetricSpec, PRIMARY_METRIC, TOOLS, type ToolSpec } from "./gungraun-metrics.ts";

/** The summary versions read, and who writes them. */
export const SUMMARY_VERSIONS: ReadonlyMap<string, string> = new Map([
  ["7", "gungraun"],
  ["6", "iai-callgrind"],
]);

const SUPPORTED = 'supported: "7" (gungraun 0.20) and "6" (iai-callgrind 0.16)';

/** A benchmark runs a handful of tools; more profiles than this is not a harness's file. */
const MAX_PROFILES = 64;

interface GungraunSummary {
  /** "6" or "7". */
  readonly version: string;
  /** The benchmark as the harness's console names it: `module_path`, then " " and `id`. */
  readonly id: string;
  /** Its primary entry (when a profile counted instructions) first, then the secondary ones. */
  readonly benchmarks: Benchmark[];
}

/** One count read from a profile. */
interface Count {
  readonly spec: MetricSpec;
  readonly value: number;
  readonly tool: string;
}

/** An exact, non-negative integer count; a larger one than a double holds exactly is refused. */
function count(value: unknown, at: At): number {
  if (typeof value !== "number") fail(at, `expected an integer count, found ${jsonType(value)}`);
  if (!Number.isInteger(value)) fail(at, `expected an integer count, found ${value}`);
  if (value < 0) fail(at, `a count must not be negative (found ${value})`);
  if (value > Number.MAX_SAFE_INTEGER)
    fail(
      at,
      `count ${value} is larger than ${Number.MAX_SAFE_INTEGER}: benchgate would lose its precision`,
    );
  return value;
}

/** Version 7: `{"values": {"new"?: n, "old"?: n}, "change"?: …}`; undefined without "new". */
function v7Value(entry: unknown, at: At): number | undefined {
  const values = asObject(field(asObject(entry, at), "values"), child(at, "values"));
  if (!hasField(values, "new")) return undefined;
  return count(field(values, "new"), child(child(at, "values"), "new"));
}

/** Version 6: `{"metrics": {"Left": v} | {"Right": v} | {"Both": [v, v]}, "diffs": …}`. */
function v6Value(entry: unknown, at: At): number | undefined {
  const metricsAt = child(at, "metrics");
  const metrics = asObject(field(asObject(entry, at), "metrics"), metricsAt);
  let valueAt: At;
  let value: unknown;
  if (hasField(metrics, "Left")) {
    valueAt = child(metricsAt, "Left");
    value = field(metrics, "Left");
  } else if (hasField(metrics, "Both")) {
    const bothAt = child(metricsAt, "Both");
    const both = asArray(field(metrics, "Both"), bothAt, "an array [new, old]");
    if (both.length !== 2) fail(bothAt, `expected [new, old], found ${both.length} items`);
    valueAt = child(bothAt, 0);
    value = both[0];
  } else if (hasField(metrics, "Right")) {
    return undefined;
  } else {
    fail(metricsAt, 'expected "Left", "Right" or "Both"');
  }
  const metric = asObject(value, valueAt, 'a metric ({"Int": n})');
  if (hasField(metric, "Float"))
    fail(valueAt, 'expected an integer count ({"Int": n}), found a "Float"');
  if (!hasField(metric, "Int")) fail(valueAt, 'expected an integer count ({"Int": n})');
  return count(field(metric, "Int"), child(valueAt, "Int"));
}

/** The metrics map of a profile's total, or undefined when the tool extracted none. */
function totalMetrics(
  profile: JsonObject,
  tool: string,
  spec: ToolSpec,
  version: string,
  at: At,
): { map: JsonObject; at: At } | undefined {
  if (version === "7") {
    const dataAt = child(at, "data");
    const totalAt = child(dataAt, "total");
    const total = asObject(field(asObject(field(profile, "data"), dataAt), "total"), totalAt);
    const mapAt = child(totalAt, "metrics");
    return { map: asObject(field(total, "metrics"), mapAt), at: mapAt };
  }
  const summariesAt = child(at, "summaries");
  const totalAt = child(summariesAt, "total");
  const summaryAt = child(totalAt, "summary");
  const summaries = asObject(field(profile, "summaries"), summariesAt);
  const summary = field(asObject(field(summaries, "total"), totalAt), "summary");
  if (summary === "None") return undefined;
  const key = spec.v6Key;
  const wrapped = asObject(summary, summaryAt, `{"${key}": {…}}`);
  const keys = Object.keys(wrapped);
  if (keys.length !== 1 || keys[0] !== key)
    fail(
      summaryAt,
      `expected {"${key}": {…}} for tool ${tool}, found keys ${JSON.stringify(keys)}`,
    );
  const mapAt = child(summaryAt, key);
  return { map: asObject(field(wrapped, key), mapAt), at: mapAt };
}

/** The counts of one profile that benchgate reads; none for a tool it does not read (Massif). */
function profileCounts(value: unknown, version: string, at: At): Count[] {
  const profile = asObject(value, at, "a profile object");
  const tool = asString(field(profile, "tool"), child(at, "tool"), 64);
  const toolSpec = TOOLS.get(tool);
  if (toolSpec === undefined) return [];
  const metrics = totalMetrics(profile, tool, toolSpec, version, at);
  if (metrics === undefined) return [];
  const counts: Count[] = [];
  for (const [name, spec] of toolSpec.metrics) {
    if (!hasField(metrics.map, name)) continue;
    const entryAt = child(metrics.at, name);
    const entry = field(metrics.map, name);
    const n = version === "7" ? v7Value(entry, entryAt) : v6Value(entry, entryAt);
    if (n !== undefined) counts.push({ spec, value: n, tool });
  }
  return counts;
}

/** `module_path`, then " " and `id` when the benchmark has one: the harness's console header. */
function benchmarkId(root: JsonObject, at: At): string {
  const modulePath = asString(field(root, "module_path"), child(at, "module_path"));
  if (modulePath.trim() === "") fail(child(at, "module_path"), "module_path is empty");
  const raw = field(root, "id");
  if (raw === undefined || raw === null) {
    if (modulePath === "__proto__")
      fail(child(at, "module_path"), 'benchmark id "__proto__" is not allowed');
    return modulePath;
  }
  const id = asString(raw, child(at, "id"));
  if (id.trim() === "") fail(child(at, "id"), "id is empty");
  return `${modulePath} ${id}`;
}

function benchmark(id: string, suite: string, c: Count, secondary: boolean): Benchmark {
  const entry: Benchmark = {
    id,
    suite,
    source: "gungraun",
    unit: c.spec.unit,
    metric: c.spec.metric,
    deterministic: true,
    direction: "smaller_is_better",
    sample_kind: "per_process",
    samples: [c.value],
    estimates: { median: c.value },
    metadata: { tool: c.tool },
  };
  if (secondary) entry.secondary = true;
  return entry;
}

/** Reads one summary.json document (already parsed with the untrusted-JSON caps). */
export function parseGungraunSummary(
  data: unknown,
  source: string,
  suite: string,
): GungraunSummary {
  const at = rootAt(source);
  const root = asObject(data, at, "a gungraun summary.json object");
  if (!hasField(root, "version"))
    fail(at, `not a gungraun summary.json: missing "version" (${SUPPORTED})`);
  const version = asString(field(root, "version"), child(at, "version"), 64);
  if (!SUMMARY_VERSIONS.has(version))
    fail(
      child(at, "version"),
      `summary version ${JSON.stringify(version)} is not supported (${SUPPORTED})`,
    );
  const id = benchmarkId(root, at);

  const profilesAt = child(at, "profiles");
  const profiles = asArray(field(root, "profiles"), profilesAt);
  if (profiles.length > MAX_PROFILES)
    fail(profilesAt, `${profiles.length} profiles, limit ${MAX_PROFILES}`);
  // Two profiles reporting one metric (Callgrind and Cachegrind both count instructions) would
  // make two entries of one id: refused rather than one picked.
  const seen = new Map<string, string>();
  const counts: Count[] = [];
  profiles.forEach((profile, i) => {
    for (const c of profileCounts(profile, version, child(profilesAt, i))) {
      const first = seen.get(c.spec.metric);
      if (first !== undefined)
        fail(
          child(profilesAt, i),
          `profiles ${first} and ${c.tool} both report ${c.spec.metric}; benchgate reads one profile per metric`,
        );
      seen.set(c.spec.metric, c.tool);
      counts.push(c);
    }
  });

  const longest = Math.max(0, ...counts.map((c) => c.spec.metric.length + 3));
  if (id.length + longest > MAX_ID_LENGTH)
    fail(
      child(at, "module_path"),
      `benchmark id is longer than ${MAX_ID_LENGTH - longest} characters`,
    );
  const primary = counts.find((c) => c.spec.metric === PRIMARY_METRIC);
  const benchmarks = counts
    .filter((c) => c !== primary)
    .map((c) => benchmark(`${id} [${c.spec.metric}]`, suite, c, true));
  if (primary !== undefined) benchmarks.unshift(benchmark(id, suite, primary, false));
  return { version, id, benchmarks };
}
