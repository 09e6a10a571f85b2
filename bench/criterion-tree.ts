// A synthetic Criterion tree of the kind `benchgate run` leaves behind: N benchmarks, each with the
// baselines base-1..k and head-1..k (`--save-baseline <side>-<round>`), written the way Criterion
// 0.5–0.8 writes them (compare action/test/fixtures/criterion-0.5.1 and bench/data/*/criterion):
// `<directory_name>/<baseline>/{benchmark,estimates,sample,tukey}.json`, compact JSON, every f64
// printed like serde_json (`66029.0`, never `66029`), benchmarks at one to three levels
// (bench_function, group/function, group/value, group/function/value), Linear sampling with
// 100 samples and iteration counts d, 2d, …, 100d, and a few slow benchmarks in Flat mode with
// 10 equal counts. `--noplot` runs write no report/, and fresh baseline names no change/.
// Seeded: the same arguments give the same bytes.
//
// Usage: node bench/criterion-tree.ts OUT [--benchmarks 1000] [--rounds 5] [--seed 1]
// OUT becomes a cargo target directory (CACHEDIR.TAG + criterion/), so both
// `critcmp --target-dir OUT` and `benchgate ingest criterion OUT` find the tree.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gaussian, rng } from "../action/test/support/synthetic.ts";

export interface CriterionTreeSpec {
  readonly benchmarks: number;
  readonly rounds: number;
  readonly seed: number;
  /** Head's slowdown for benchmark i (1 = unchanged); default: every 50th × 1.5. */
  readonly scale?: (index: number) => number;
}

export interface CriterionTreeWritten {
  /** The cargo target directory (holds criterion/). */
  readonly target: string;
  readonly baselines: readonly string[];
  readonly files: number;
  /** Bytes of JSON written (the files' sizes, not their blocks on disk). */
  readonly bytes: number;
}

/** serde_json's f64: shortest round-trip digits, and `.0` on integral values. */
function f64(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  const s = String(x);
  return Number.isInteger(x) && !s.includes("e") ? `${s}.0` : s;
}

const list = (xs: readonly number[]): string => `[${xs.map(f64).join(",")}]`;

/** One benchmark's identity, as Criterion derives it from the group, function and value. */
interface BenchId {
  readonly groupId: string;
  readonly functionId: string | null;
  readonly valueStr: string | null;
  readonly throughput: string;
  /** Nanoseconds per iteration on base. */
  readonly ns: number;
  readonly flat: boolean;
}

const SIZES = [16, 64, 256, 1024, 4096];
const PER_GROUP = 25;

/**
 * Groups of 25 benchmarks in four shapes, in turn: group/function/value (5 × 5, throughput in
 * bytes), group/function, group/value (`BenchmarkId::from_parameter`, throughput in elements),
 * and plain `bench_function`s at the top level.
 */
function benchIds(n: number, random: () => number): BenchId[] {
  const ids: BenchId[] = [];
  for (let i = 0; i < n; i++) {
    const g = Math.floor(i / PER_GROUP);
    const j = i % PER_GROUP;
    const group = `group_${String(g).padStart(2, "0")}`;
    const ns = 20 * Math.exp(8 * random()); // 20 ns … 60 µs per iteration
    const flat = i % 40 === 39; // a slow benchmark with sample_size(10), SamplingMode::Flat
    const common = { ns: flat ? ns * 1000 : ns, flat };
    switch (g % 4) {
      case 0: {
        const size = SIZES[j % SIZES.length] as number;
        ids.push({
          groupId: group,
          functionId: `func_${Math.floor(j / SIZES.length)}`,
          valueStr: String(size),
          throughput: `{"Bytes":${size}}`,
          ...common,
        });
        break;
      }
      case 1:
        ids.push({
          groupId: group,
          functionId: `func_${j}`,
          valueStr: null,
          throughput: "null",
          ...common,
        });
        break;
      case 2:
        ids.push({
          groupId: group,
          functionId: null,
          valueStr: String(1000 * (j + 1)),
          throughput: `{"Elements":${1000 * (j + 1)}}`,
          ...common,
        });
        break;
      default:
        ids.push({
          groupId: `bench_${String(g).padStart(2, "0")}_${String(j).padStart(2, "0")}`,
          functionId: null,
          valueStr: null,
          throughput: "null",
          ...common,
        });
    }
  }
  return ids;
}

function fullId(id: BenchId): string {
  return [id.groupId, id.functionId, id.valueStr].filter((p) => p !== null).join("/");
}

const quantile = (sorted: readonly number[], q: number): number => {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo);
};

/** Criterion's estimate object: a point with a 95 % interval of ±1.96 standard errors. */
function estimate(point: number, se: number): string {
  const lower = Math.max(0, point - 1.96 * se);
  return `{"confidence_interval":{"confidence_level":0.95,"lower_bound":${f64(lower)},"upper_bound":${f64(point + 1.96 * se)}},"point_estimate":${f64(point)},"standard_error":${f64(se)}}`;
}

/** The four files of one benchmark and baseline. */
function baselineFiles(
  id: BenchId,
  level: number,
  normal: () => number,
): Record<"benchmark" | "estimates" | "sample" | "tukey", string> {
  const name = fullId(id);
  const value = (v: string | null): string => (v === null ? "null" : JSON.stringify(v));
  const benchmark = `{"group_id":${value(id.groupId)},"function_id":${value(id.functionId)},"value_str":${value(id.valueStr)},"throughput":${id.throughput},"full_id":${JSON.stringify(name)},"directory_name":${JSON.stringify(name)},"title":${JSON.stringify(name)}}`;

  const n = id.flat ? 10 : 100;
  // Criterion picks d so that the run fills its measurement time (here ~5 s over all samples).
  const budget = 5e9;
  const d = id.flat
    ? Math.max(1, Math.ceil(budget / n / level))
    : Math.max(1, Math.ceil(budget / (level * ((n * (n + 1)) / 2))));
  const iters = Array.from({ length: n }, (_, j) => (id.flat ? d : d * (j + 1)));
  // Measured times are whole nanoseconds, as Criterion records them.
  const times = iters.map((k) => Math.max(1, Math.round(k * level * Math.exp(0.02 * normal()))));
  const per = times.map((t, j) => t / (iters[j] as number));
  const sorted = [...per].sort((a, b) => a - b);
  const mean = per.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(per.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const median = quantile(sorted, 0.5);
  const mad =
    1.4826 *
    quantile(
      [...per.map((x) => Math.abs(x - median))].sort((a, b) => a - b),
      0.5,
    );
  const se = sd / Math.sqrt(n);
  const sumXY = iters.reduce((a, k, j) => a + k * (times[j] as number), 0);
  const sumXX = iters.reduce((a, k) => a + k * k, 0);
  const slope = id.flat ? "null" : estimate(sumXY / sumXX, se * 0.5);
  const estimates = `{"mean":${estimate(mean, se)},"median":${estimate(median, se * 1.25)},"median_abs_dev":${estimate(mad, se * 0.8)},"slope":${slope},"std_dev":${estimate(sd, sd / Math.sqrt(2 * n))}}`;

  const sampleMode = id.flat ? "Flat" : "Linear";
  const sample = `{"sampling_mode":"${sampleMode}","iters":${list(iters)},"times":${list(times)}}`;
  const q1 = quantile(sorted, 0.25);
  const q3 = quantile(sorted, 0.75);
  const iqr = q3 - q1;
  const tukey = list([q1 - 3 * iqr, q1 - 1.5 * iqr, q3 + 1.5 * iqr, q3 + 3 * iqr]);
  return { benchmark, estimates, sample, tukey };
}

/** Writes the tree under `target/criterion`; returns what it wrote. */
export function writeCriterionTree(target: string, spec: CriterionTreeSpec): CriterionTreeWritten {
  const random = rng(spec.seed);
  const normal = gaussian(random);
  const ids = benchIds(spec.benchmarks, random);
  const scale = spec.scale ?? ((i: number) => (i % 50 === 0 ? 1.5 : 1));
  const home = path.join(target, "criterion");
  mkdirSync(home, { recursive: true });
  writeFileSync(
    path.join(target, "CACHEDIR.TAG"),
    "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by cargo.\n# For information about cache directory tags see https://bford.info/cachedir/\n",
  );
  const baselines: string[] = [];
  let files = 0;
  let bytes = 0;
  for (let r = 1; r <= spec.rounds; r++) {
    for (const side of ["base", "head"] as const) {
      const baseline = `${side}-${r}`;
      baselines.push(baseline);
      // Each round shifts every benchmark a little, as a real machine's state does.
      const roundLevel = Math.exp(0.02 * normal());
      for (const [i, id] of ids.entries()) {
        const level = id.ns * roundLevel * (side === "head" ? scale(i) : 1);
        const dir = path.join(home, fullId(id), baseline);
        mkdirSync(dir, { recursive: true });
        for (const [file, text] of Object.entries(baselineFiles(id, level, normal))) {
          writeFileSync(path.join(dir, `${file}.json`), text);
          files++;
          bytes += Buffer.byteLength(text);
        }
      }
    }
  }
  return { target, baselines, files, bytes };
}

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i === -1 ? fallback : Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a positive integer`);
  return value;
}

if (
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  const out = process.argv[2];
  if (out === undefined || out.startsWith("--")) {
    process.stderr.write(
      "usage: node bench/criterion-tree.ts OUT [--benchmarks 1000] [--rounds 5] [--seed 1]\n",
    );
    process.exit(2);
  }
  const written = writeCriterionTree(out, {
    benchmarks: option("benchmarks", 1000),
    rounds: option("rounds", 5),
    seed: option("seed", 1),
  });
  process.stdout.write(
    `${written.target}: ${written.baselines.length} baselines, ${written.files} files, ${(written.bytes / 1e6).toFixed(1)} MB of JSON\n`,
  );
}
