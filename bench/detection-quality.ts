// Detection quality on recorded A/A rounds of real suites (bench/data/aa-*): false alarms when
// nothing changed, and the share of injected slowdowns found, for benchgate (all rounds
// together) and for what peers decide on one run per side (Criterion's verdict, critcmp -t 5,
// github-action-benchmark at 110 % and 200 %), on the same data.
// A/A stress cases (every run order of k = 4, 5, 8 rounds, shared round shocks) come from
// bench/aa-stress.ts; sequential rounds are in bench/sequential-replay.ts.
// Usage: node bench/detection-quality.ts [--suite aa-bs58-0.5.1] [--subsets 20] [--resamples 2000]
//   [--stress-designs 5]
import { readFileSync, existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { compare } from "../action/src/core/compare-summaries.ts";
import { resolveSettings } from "../action/src/core/settings.ts";
import { estimatePoint, type SourcedSummary } from "../action/src/core/pairing.ts";
import type { Benchmark, Estimate } from "../action/src/schemas/summary.gen.ts";
import { rng } from "../action/test/support/synthetic.ts";
import { aaSuites, scaleBenchmark as scale } from "./aa-data.ts";
import { stress } from "./aa-stress.ts";
import { criterionVerdict, critcmpRow, gabAlert } from "./peers.ts";
import { ROOT, option, writeResult } from "./support.ts";

const FACTORS = [1.05, 1.1, 1.25, 1.5, 2, 3] as const;
/** The fixed-design analyses use the first rounds of every suite, so suites compare alike. */
const FIXED_ROUNDS = 5;
const subsets = Number(option("subsets", "20"));
const resamples = Number(option("resamples", "2000"));
const stressDesigns = Number(option("stress-designs", "5"));
const only = option("suite", "");
const dataDir = path.join(ROOT, "bench/data");

function point(e: Estimate | undefined): number {
  return estimatePoint(e) ?? Number.NaN;
}

function withHead(files: SourcedSummary[], f: (b: Benchmark) => Benchmark): SourcedSummary[] {
  return files.map((x) => ({
    ...x,
    summary: { ...x.summary, benchmarks: x.summary.benchmarks.map(f) },
  }));
}

const results: Record<string, unknown> = {};
for await (const loaded of aaSuites(dataDir, only)) {
  const suite = loaded.name;
  const dir = loaded.dir;
  const k = Math.min(FIXED_ROUNDS, loaded.rounds);
  const sides = { base: loaded.base.slice(0, k), head: loaded.head.slice(0, k) };
  const ids = loaded.ids;
  const m = ids.length;
  process.stderr.write(
    `${suite}: ${m} benchmarks × ${loaded.rounds} rounds (fixed designs: first ${k})\n`,
  );
  const settings = resolveSettings();

  // ── benchgate on A/A: all k rounds, and the first 3.
  const aa = (rs: number) =>
    compare(sides.base.slice(0, rs), sides.head.slice(0, rs), { settings });
  const aaAll = aa(k);
  const aa3 = aa(Math.min(3, k));
  const aaFalse = { [`k${k}`]: aaAll.counts.regressed, k3: aa3.counts.regressed };

  // More A/A comparisons from the same data: in an A/A round either side may be called "head",
  // so every pattern of swapping the labels within rounds is another valid A/A data set
  // (2^k of them), and so is every choice of 3 of the k rounds with its own swaps.
  const swapped = (rs: number[], mask: number) => {
    const b: SourcedSummary[] = [];
    const h: SourcedSummary[] = [];
    rs.forEach((r, i) => {
      const swap = ((mask >> i) & 1) === 1;
      b.push(swap ? sides.head[r]! : sides.base[r]!);
      h.push(swap ? sides.base[r]! : sides.head[r]!);
    });
    return compare(b, h, { settings });
  };
  const aaReplicates = (size: number) => {
    const combos: number[][] = [];
    const pick = (start: number, acc: number[]) => {
      if (acc.length === size) return void combos.push(acc);
      for (let i = start; i < k; i++) pick(i + 1, [...acc, i]);
    };
    pick(0, []);
    let comparisons = 0;
    let failures = 0;
    let flagged = 0;
    let inconclusive = 0;
    for (const rs of combos) {
      for (let mask = 0; mask < 1 << size; mask++) {
        const report = swapped(rs, mask);
        comparisons++;
        if (report.counts.regressed > 0) failures++;
        flagged += report.counts.regressed;
        inconclusive += report.counts.inconclusive;
      }
    }
    return {
      comparisons,
      gate_failures: failures,
      false_regressions: flagged,
      benchmark_verdicts: comparisons * m,
      inconclusive,
    };
  };
  const aaMany = { [`k${k}`]: aaReplicates(k), k3: aaReplicates(Math.min(3, k)) };
  const mdes = { [`k${k}`]: aaAll.noise.median_mde, k3: aa3.noise.median_mde };

  // ── benchgate on injected slowdowns: random subsets (20 % of the suite) scaled in head.
  const random = rng(12345);
  const bgDetect: Record<
    string,
    { detected: number; injected: number; falseFlags: number; clean: number }
  > = {};
  for (const f of FACTORS) {
    const acc = { detected: 0, injected: 0, falseFlags: 0, clean: 0 };
    for (let s = 0; s < subsets; s++) {
      const chosen = new Set(ids.filter(() => random() < 0.2));
      if (chosen.size === 0) chosen.add(ids[Math.floor(random() * m)]!);
      const head = withHead(sides.head.slice(0, k), (b) => (chosen.has(b.id) ? scale(b, f) : b));
      const report = compare(sides.base.slice(0, k), head, { settings });
      for (const e of report.benchmarks) {
        if (chosen.has(e.id)) {
          acc.injected++;
          if (e.verdict === "regressed") acc.detected++;
        } else {
          acc.clean++;
          if (e.verdict === "regressed") acc.falseFlags++;
        }
      }
    }
    bgDetect[String(f)] = acc;
  }

  // ── peers: one run per side, each round pair on its own.
  const peerRandom = rng(777);
  const peers = {
    criterion: { aaFlags: 0, detect: {} as Record<string, number> },
    critcmp5: { aaFlags: 0, detect: {} as Record<string, number> },
    gab110: { aaFlags: 0, detect: {} as Record<string, number> },
    gab200: { aaFlags: 0, detect: {} as Record<string, number> },
  };
  const pairs = k * m;
  let criterionAgree = 0;
  let criterionChecked = 0;
  const recordedFile = path.join(dir, "criterion-verdicts.json");
  const recorded = existsSync(recordedFile)
    ? (JSON.parse(readFileSync(recordedFile, "utf8")) as {
        round: number;
        title: string;
        verdict: string;
      }[])
    : [];
  const peerGateFailures = { criterion: 0, critcmp5: 0, gab110: 0, gab200: 0 };
  for (const f of [1, ...FACTORS]) {
    let crit = 0;
    let cc = 0;
    let g110 = 0;
    let g200 = 0;
    for (let r = 0; r < k; r++) {
      const before = { criterion: crit, critcmp5: cc, gab110: g110, gab200: g200 };
      const baseById = new Map(sides.base[r]!.summary.benchmarks.map((b) => [b.id, b]));
      for (const hb of sides.head[r]!.summary.benchmarks) {
        const bb = baseById.get(hb.id)!;
        const h = f === 1 ? hb : scale(hb, f);
        const verdict = criterionVerdict(h.samples ?? [], bb.samples ?? [], peerRandom, resamples);
        if (verdict === "regressed") crit++;
        if (f === 1) {
          const real = recorded.find(
            (x) =>
              x.round === r + 1 &&
              (x.title === hb.id || hb.id.startsWith(x.title.replace(/\.\.\.$/, ""))),
          );
          if (real !== undefined) {
            criterionChecked++;
            if (real.verdict === verdict) criterionAgree++;
          }
        }
        if (critcmpRow(point(bb.estimates.mean), point(h.estimates.mean), 5) === "head-slower")
          cc++;
        if (gabAlert(point(bb.estimates.median), point(h.estimates.median), 1.1)) g110++;
        if (gabAlert(point(bb.estimates.median), point(h.estimates.median), 2)) g200++;
      }
      if (f === 1) {
        if (crit > before.criterion) peerGateFailures.criterion++;
        if (cc > before.critcmp5) peerGateFailures.critcmp5++;
        if (g110 > before.gab110) peerGateFailures.gab110++;
        if (g200 > before.gab200) peerGateFailures.gab200++;
      }
    }
    if (f === 1) {
      peers.criterion.aaFlags = crit;
      peers.critcmp5.aaFlags = cc;
      peers.gab110.aaFlags = g110;
      peers.gab200.aaFlags = g200;
    } else {
      peers.criterion.detect[String(f)] = crit / pairs;
      peers.critcmp5.detect[String(f)] = cc / pairs;
      peers.gab110.detect[String(f)] = g110 / pairs;
      peers.gab200.detect[String(f)] = g200 / pairs;
    }
  }

  // Cross-check the critcmp rule against the real critcmp on the A/A round pairs.
  let critcmpRealRows = 0;
  let critcmpRuleRows = 0;
  for (let r = 1; r <= k; r++) {
    const out = spawnSync("critcmp", ["--target-dir", dir, `base-${r}`, `head-${r}`, "-t", "5"], {
      encoding: "utf8",
      env: {
        ...process.env,
        PATH: `${process.env["HOME"] ?? ""}/.cargo/bin:${process.env["PATH"] ?? ""}`,
      },
    });
    if (out.error === undefined) {
      const lines = out.stdout.split("\n").filter((l) => l.trim() !== "");
      critcmpRealRows += out.status === 0 ? Math.max(0, lines.length - 2) : 0;
    }
    const baseById = new Map(sides.base[r - 1]!.summary.benchmarks.map((b) => [b.id, b]));
    for (const hb of sides.head[r - 1]!.summary.benchmarks) {
      if (
        critcmpRow(point(baseById.get(hb.id)!.estimates.mean), point(hb.estimates.mean), 5) !==
        "hidden"
      )
        critcmpRuleRows++;
    }
  }

  // ── A/A stress: every run-order pattern of k = 4, 5, 8 rounds, a shared round shock (one round
  // of head × 1.10 or × 0.90 for every benchmark) in each round position, and both together.
  const stressCases: Record<string, unknown> = {};
  for (const sk of [4, 5, 8]) {
    if (sk > loaded.rounds) continue;
    stressCases[`k${sk}`] = stress(loaded, sk, ["none", "shock+", "shock-"], stressDesigns);
  }

  const share = (x: { detected: number; injected: number }) => x.detected / x.injected;
  results[suite] = {
    benchmarks: m,
    rounds: k,
    recorded_rounds: loaded.rounds,
    noise_median_sd: aaAll.noise.median_sd,
    period_effect: aaAll.noise.period_effect,
    benchgate: {
      aa_stress: stressCases,
      aa_false_regressions: aaFalse,
      aa_replicates: aaMany,
      aa_inconclusive: { [`k${k}`]: aaAll.counts.inconclusive, k3: aa3.counts.inconclusive },
      median_mde: mdes,
      injected: Object.fromEntries(
        Object.entries(bgDetect).map(([f, a]) => [
          f,
          { detected: share(a), false_flags: a.falseFlags, clean: a.clean, injected: a.injected },
        ]),
      ),
    },
    peers: {
      round_pairs: pairs,
      aa_gate_failures_of_rounds: { rounds: k, ...peerGateFailures },
      criterion: {
        aa_regressed: peers.criterion.aaFlags,
        detected: peers.criterion.detect,
        emulation_agreement: criterionChecked === 0 ? null : criterionAgree / criterionChecked,
        checked: criterionChecked,
      },
      critcmp_t5: {
        aa_head_slower_rows: peers.critcmp5.aaFlags,
        detected: peers.critcmp5.detect,
        real_vs_rule_rows: [critcmpRealRows, critcmpRuleRows],
      },
      gab_110: { aa_alerts: peers.gab110.aaFlags, detected: peers.gab110.detect },
      gab_200: { aa_alerts: peers.gab200.aaFlags, detected: peers.gab200.detect },
    },
  };
}
writeResult("detection-quality", results);
