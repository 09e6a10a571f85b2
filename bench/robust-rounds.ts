// The median of many rounds against the mean, on synthetic suites whose processes land 2x slow
// at random (a contended machine): A/A gate failures, the share of a +5 % slowdown of a quarter
// of the benchmarks that each rule finds, and the median MDE. docs/statistics.md §5 quotes it.
// Usage: node bench/robust-rounds.ts [--seeds 20]
import { compare } from "../action/src/core/compare-summaries.ts";
import { resolveSettings } from "../action/src/core/settings.ts";
import { processJumps, scaleSamples, syntheticSuite } from "../action/test/support/synthetic.ts";
import { median, option, writeResult } from "./support.ts";

const seeds = Number(option("--seeds", "20"));
const rules = { median: resolveSettings(), mean: resolveSettings({ robust: false }) } as const;

const slowed = (id: string): boolean => Number(id.split("-")[1]) % 4 === 0;

interface Tally {
  aaFailures: number;
  found: number;
  falseFlags: number;
  mde: number[];
}

function line(name: string, t: Tally, slowedCount: number): string {
  return `${name}: A/A ${t.aaFailures}/${seeds} failed, +5 % found ${t.found}/${slowedCount}, MDE ${(100 * median(t.mde)).toFixed(1)} %`;
}

const rows = [];
for (const share of [0, 0.05, 0.12, 0.25])
  for (const rounds of [12, 20, 30]) {
    const tally = new Map<string, Tally>(
      Object.keys(rules).map((k) => [k, { aaFailures: 0, found: 0, falseFlags: 0, mde: [] }]),
    );
    for (let seed = 1; seed <= seeds; seed++) {
      const s = syntheticSuite({ benchmarks: 24, rounds, samples: 10, noise: 0.01, seed });
      const base = processJumps(s.base, seed + 1000, share);
      const head = processJumps(s.head, seed + 2000, share);
      const slow = scaleSamples(head, (_, id) => (slowed(id) ? 1.05 : 1));
      for (const [name, settings] of Object.entries(rules)) {
        const t = tally.get(name) as Tally;
        const aa = compare(base, head, { settings });
        if (aa.verdict === "fail") t.aaFailures += 1;
        const mde = aa.noise?.median_mde;
        if (typeof mde === "number") t.mde.push(mde);
        for (const e of compare(base, slow, { settings }).benchmarks)
          if (e.verdict === "regressed") {
            if (slowed(e.id)) t.found += 1;
            else t.falseFlags += 1;
          }
      }
    }
    const slowedCount = seeds * 6;
    rows.push({
      share,
      rounds,
      seeds,
      slowed: slowedCount,
      rules: Object.fromEntries(
        [...tally].map(([k, t]) => [k, { ...t, mde: undefined, medianMde: median(t.mde) }]),
      ),
    });
    console.log(
      `${(share * 100).toFixed(0)} % of processes 2x, ${rounds} rounds — ${[...tally].map(([k, t]) => line(k, t, slowedCount)).join(" | ")}`,
    );
  }
writeResult("robust-rounds", { rows });
