// Seeded synthetic histories (history.v1) for the page's tests and benchmark: several suites,
// lognormal noise with this VM's bimodal jumps on some series, steps (regressions, fixes),
// budgets on some series, CI bands, benchmarks added late, an imported github-action-benchmark
// suite without intervals, and an environment change part-way through.
import type { BenchHistory, Commit, Series } from "../../src/schemas/history.gen.ts";
import { gaussian, rng } from "./synthetic.ts";

export interface SyntheticHistoryOptions {
  readonly benchmarks: number;
  readonly commits: number;
  readonly seed: number;
  /** Commit index where the runner's environment changes (kernel upgrade); none when omitted. */
  readonly environmentChangeAt?: number;
  /** Steps as [series index, commit index, factor]; by default ~10 % of series get one. */
  readonly steps?: readonly (readonly [number, number, number])[];
  /** Replaces generated benchmark ids (index → id), e.g. to plant hostile names. */
  readonly ids?: Readonly<Record<number, string>>;
  /** Replaces generated commit fields (index → fields). */
  readonly commitFields?: Readonly<Record<number, Partial<Commit>>>;
}

const SUITES = ["parser", "codec", "archive", "cli"] as const;
const AUTHORS = ["Ada Lovelace", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov"];
const VERBS = ["Speed up", "Refactor", "Fix", "Inline", "Avoid a copy in", "Document"];

export function syntheticHistory(options: SyntheticHistoryOptions): BenchHistory {
  const random = rng(options.seed);
  const normal = gaussian(random);
  const hex = (length: number): string =>
    Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join("");
  const importedCount = Math.max(1, Math.floor(options.benchmarks / 20));
  const series: Series[] = Array.from({ length: options.benchmarks }, (_, i): Series => {
    const imported = i >= options.benchmarks - importedCount;
    const suite = imported ? "legacy-gab" : (SUITES[i % SUITES.length] as string);
    const base: Series = {
      suite,
      id:
        options.ids?.[i] ??
        `${suite}/bench_${String(i).padStart(3, "0")}/${[16, 256, 4096][i % 3]}`,
      unit: suite === "cli" ? "ms" : "ns",
      direction: i % 17 === 5 ? "bigger_is_better" : "smaller_is_better",
    };
    if (i % 17 === 5) base.unit = "MiB/s";
    return imported ? { ...base, origin: "github-action-benchmark", tool: "cargo" } : base;
  });
  const profile = series.map((s, i) => ({
    level: 10 ** (1 + 4 * random()),
    noise: 0.02 + 0.1 * random(),
    bimodal: i % 7 === 3,
    ci: 0.01 + 0.05 * random(),
    budget: i % 5 === 1 && s.origin === undefined ? 1.6 : null,
    firstCommit: i % 23 === 9 ? Math.floor(options.commits * 0.4) : 0,
  }));
  const steps =
    options.steps ??
    series.flatMap((_, i) =>
      i % 10 === 2 ? [[i, Math.floor(options.commits * (0.2 + 0.6 * random())), 1.3] as const] : [],
    );
  const fingerprint = (after: boolean): string => (after ? "b".repeat(16) : "a".repeat(16));
  const start = Date.UTC(2026, 0, 5, 9);
  let time = start;
  const commits: Commit[] = [];
  for (let c = 0; c < options.commits; c++) {
    time += Math.floor(random() * 20 * 3600 * 1000);
    const sha = hex(40);
    const changed = options.environmentChangeAt !== undefined && c >= options.environmentChangeAt;
    const results: Commit["results"] = [];
    const extras: NonNullable<Commit["extras"]> = [];
    series.forEach((s, i) => {
      const p = profile[i] as (typeof profile)[number];
      if (c < p.firstCommit) return;
      let level = p.level;
      for (const [si, at, factor] of steps) if (si === i && c >= at) level *= factor;
      const jump = p.bimodal && random() < 0.3 ? 1.3 : 1;
      const median = level * Math.exp(p.noise * normal()) * jump;
      if (s.origin === "github-action-benchmark") {
        results.push([i, Math.round(median), null, null, null]);
        extras.push([i, `± ${Math.round(median * p.ci)}`, null]);
      } else {
        const budget = p.budget === null ? null : p.level * p.budget;
        results.push([i, median, median * (1 - p.ci), median * (1 + p.ci), budget]);
      }
    });
    const date = new Date(time).toISOString();
    commits.push({
      sha,
      date,
      message: `${VERBS[c % VERBS.length]} ${SUITES[c % SUITES.length]} (#${1000 + c})`,
      author: AUTHORS[c % AUTHORS.length] as string,
      url: `https://github.com/example/project/commit/${sha}`,
      recorded_at: date,
      fingerprint: fingerprint(changed),
      environment: {
        cpu_model: "AMD EPYC 7B13",
        logical_cpus: 2,
        kernel: changed ? "6.18.2" : "6.12.9",
        rustc: "rustc 1.91.0",
        governor: "performance",
      },
      rounds: 5,
      verdict: "pass",
      results,
      ...(extras.length > 0 ? { extras } : {}),
      ...options.commitFields?.[c],
    });
  }
  return {
    schema_version: 1,
    generator: { name: "benchgate", version: "0.1.0" },
    updated_at: new Date(time).toISOString(),
    series,
    commits,
  };
}
