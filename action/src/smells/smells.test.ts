// Every smell on data shaped like the case it catches, and silent on a healthy suite. The
// summaries are seeded Criterion-like rounds (action/test/support/smell-suites.ts): 5 rounds per
// side, 100 per-iteration samples per run, a quiet runner unless a test says otherwise.
import { describe, expect, it } from "vitest";
import { makeEntry } from "../../test/support/report-factory.ts";
import {
  criterionMetadata,
  kindsOf,
  lognormal,
  noisySuite,
  ofKind,
  quantized,
  reportOf,
  rising,
  shapedSuite,
  shuffledShape,
  sizeSeries,
  smeared,
  smellsOf,
  twoModes,
  type SampleShape,
  type ShapedBenchmark,
  type ShapedSuite,
} from "../../test/support/smell-suites.ts";
import { underpowered } from "./power-and-resolution.ts";

/** Every smell but underpowered, through the config's own `ignore`. */
function warnings(suite: ShapedSuite): ReturnType<typeof smellsOf> {
  return smellsOf(suite, { ignore: ["underpowered"] });
}

const SIZES = [100, 1000, 10000];

/** The demo crate's micro suite: parse is linear, the rest are unrelated functions. */
const DEMO: ShapedBenchmark[] = [
  ...sizeSeries("parse", SIZES, [1350, 12_700, 120_000]),
  { id: "checksum/fnv1a", ns: 4100 },
  { id: "render_report", ns: 85_000 },
  { id: "normalize", ns: 20_000 },
];

/** A realistic, healthy suite: linear scaling, distinct functions, 2 % noise, quiet rounds. */
const HEALTHY: ShapedBenchmark[] = [...DEMO, { id: "lex/tokens", ns: 640 }];

/** The four operations of the identical-timings case, at 11.9–12.0 ms. */
function ops(times: readonly number[], extra: Partial<ShapedBenchmark> = {}): ShapedBenchmark[] {
  return ["list", "invoke", "search", "info"]
    .slice(0, times.length)
    .map((name, i) => ({ id: `ops/${name}`, ns: times[i] as number, spread: 0.003, ...extra }));
}

describe("a healthy suite", () => {
  it.each([1, 2, 3, 4, 5])("raises nothing at all (seed %i)", (seed) => {
    const suite = shapedSuite({ seed, benchmarks: HEALTHY });
    // underpowered included: its MDE (about +3.2 %) is near the floor F + zβ·se, far below
    // twice the +3 % fail threshold.
    expect(smellsOf(suite)).toEqual([]);
    expect(reportOf(suite).verdict).toBe("pass");
  });
});

describe("identical-timings", () => {
  it("raises on list, invoke, search and info all at 11.9–12.0 ms with ~0.3 % spread", () => {
    const suite = shapedSuite({ seed: 3, benchmarks: ops([11.92e6, 11.95e6, 11.98e6, 12.0e6]) });
    const smells = warnings(suite);
    expect(kindsOf(smells)).toEqual(["identical-timings"]);
    const [smell] = smells;
    expect([...(smell?.benchmarks ?? [])].sort()).toEqual([
      "ops/info",
      "ops/invoke",
      "ops/list",
      "ops/search",
    ]);
    expect(smell?.evidence).toMatch(/^4 different benchmarks all take 11\.9 ms–12\.0 ms/);
    expect(smell?.evidence).toMatch(/within-run spread of at most 0\.[2-4] %/);
    expect(smell?.hint).toMatch(/async runtime/);
    expect(smell?.suite).toBe("micro");
  });

  it("treats everything within 3 % of the fastest as one cluster (12.0–12.35 ms)", () => {
    const suite = shapedSuite({ seed: 3, benchmarks: ops([12e6, 12.1e6, 12.2e6, 12.35e6]) });
    expect(ofKind(warnings(suite), "identical-timings")[0]?.benchmarks).toHaveLength(4);
  });

  it("needs three distinct functions: three of four ops raise it, two do not", () => {
    const three = shapedSuite({ seed: 3, benchmarks: ops([12e6, 12.02e6, 12.04e6]) });
    expect(kindsOf(warnings(three))).toEqual(["identical-timings"]);
    const two = shapedSuite({ seed: 3, benchmarks: ops([12e6, 12.02e6]) });
    expect(warnings(two)).toEqual([]);
  });

  it.each([
    ["times 4 % apart", ops([12e6, 12.5e6, 13e6, 13.52e6])],
    ["different times", ops([1.2e6, 3.4e6, 7.9e6, 12e6])],
    ["a within-run spread of 5 %", ops([12e6, 12.02e6, 12.04e6, 12.06e6], { spread: 0.05 })],
    ["sub-microsecond times", ops([900, 901, 902, 903])],
  ])("stays silent on four operations with %s", (_, benchmarks) => {
    expect(warnings(shapedSuite({ seed: 3, benchmarks }))).toEqual([]);
  });

  it("does not count the sizes of one parameterized function as distinct benchmarks", () => {
    const benchmarks = sizeSeries("ingest", SIZES, [12e6, 12.02e6, 12.04e6], { spread: 0.003 });
    expect(ofKind(warnings(shapedSuite({ seed: 4, benchmarks })), "identical-timings")).toEqual([]);
  });

  it("does not cluster across suites", () => {
    const benchmarks = ops([12e6, 12.01e6, 12.02e6, 12.03e6]).map((b, i) => ({
      ...b,
      suite: i % 2 === 0 ? "api" : "cli",
    }));
    expect(warnings(shapedSuite({ seed: 3, benchmarks }))).toEqual([]);
  });
});

describe("flat-scaling", () => {
  const ingest = sizeSeries("ingest", SIZES, [17e6, 19e6, 29e6]);

  it("raises on 100 → 1,000 → 10,000 events taking 17 → 19 → 29 ms (a fixed cost in b.iter())", () => {
    const suite = shapedSuite({ seed: 4, benchmarks: ingest });
    expect(suite.head[0]?.summary.benchmarks[0]?.metadata).toEqual({
      group_id: "ingest",
      value_str: "100",
      sampling_mode: "Linear",
    });
    const smells = warnings(suite);
    expect(kindsOf(smells)).toEqual(["flat-scaling"]);
    const [smell] = smells;
    expect(smell?.benchmarks).toEqual(["ingest/100", "ingest/1000", "ingest/10000"]);
    expect(smell?.evidence).toMatch(/^ingest: sizes 100…10000 \(×100\) but time only ×1\.7/);
    expect(smell?.evidence).toMatch(/100 → 17\.0 ms, 1000 → 19\.0 ms, 10000 → 29\.0 ms/);
    expect(smell?.evidence).toMatch(/exponent 0\.1\d; a fixed cost of about 17\.\d ms/);
    expect(smell?.hint).toMatch(/b\.iter\(\)/);
  });

  it("reads the size off the id when Criterion's value_str is missing", () => {
    const benchmarks = ingest.map((b) => ({ ...b, metadata: { group_id: "ingest" } }));
    expect(kindsOf(warnings(shapedSuite({ seed: 4, benchmarks })))).toEqual(["flat-scaling"]);
  });

  it("never raises on the demo crate's linear parse/100,1000,10000 (1.35 µs, 12.7 µs, 120 µs)", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      // The demo's head slows normalize ×3; that is a regression, not a smell.
      const suite = shapedSuite({
        seed,
        benchmarks: DEMO.map((b) => (b.id === "normalize" ? { ...b, headScale: 3 } : b)),
      });
      expect(warnings(suite)).toEqual([]);
      const report = reportOf(suite);
      expect(report.verdict).toBe("fail");
      expect(report.benchmarks.filter((e) => e.verdict === "regressed").map((e) => e.id)).toEqual([
        "normalize",
      ]);
    }
  });

  it.each([
    ["O(log n): 46 → 69 → 92 ns", [46, 69, 92]],
    ["O(1): 12 → 12.1 → 12.2 ms", [12e6, 12.1e6, 12.2e6]],
    ["a growth under ×1.1: 17 → 17.5 → 18.6 ms", [17e6, 17.5e6, 18.6e6]],
    ["√n: 10 → 32 → 100 µs", [10e3, 31.6e3, 100e3]],
  ])("stays silent on %s", (_, times) => {
    const suite = shapedSuite({ seed: 4, benchmarks: sizeSeries("search", SIZES, times) });
    expect(warnings(suite)).toEqual([]);
  });

  it("needs three sizes spanning 10×", () => {
    const two = sizeSeries("ingest", [100, 10000], [17e6, 29e6]);
    const narrow = sizeSeries("ingest", [100, 300, 900], [17e6, 19e6, 29e6]);
    expect(warnings(shapedSuite({ seed: 4, benchmarks: two }))).toEqual([]);
    expect(warnings(shapedSuite({ seed: 4, benchmarks: narrow }))).toEqual([]);
  });
});

describe("complexity-change", () => {
  const linear = [1e4, 1e5, 1e6];
  const sorted = (headTimes: readonly number[], rounds = 5): ShapedSuite =>
    shapedSuite({
      seed: 6,
      rounds,
      roundNoise: 0.01,
      benchmarks: sizeSeries("sort", SIZES, linear, { headTimes }),
    });

  it("raises when head grows quadratically while the smallest size is unchanged", () => {
    const smells = warnings(sorted([1e4, 1e6, 1e8]));
    expect(kindsOf(smells)).toEqual(["complexity-change"]);
    const [smell] = smells;
    expect(smell?.benchmarks).toEqual(["sort/100", "sort/1000", "sort/10000"]);
    expect(smell?.evidence).toMatch(
      /^sort: scaling exponent 1\.00 → 2\.00 over sizes 100…10000 \(5 paired rounds\)/,
    );
    // ×100 at the largest size, not "+9900 %": the comment's formatter, from +1,000 % on a ratio.
    expect(smell?.evidence).toMatch(
      /; change per size 100: [+\u2212]\d\.\d %, 1000: \+9\d\d\.\d %, 10000: ×(99|100)$/u,
    );
    expect(smell?.hint).toMatch(/grows faster/);
  });

  it("raises a change of at least 0.3 in the exponent (n → n^1.35), not 0.2 (n → n^1.2)", () => {
    const power = (e: number): number[] => SIZES.map((n) => 1e4 * (n / 100) ** e);
    expect(kindsOf(warnings(sorted(power(1.35))))).toEqual(["complexity-change"]);
    expect(warnings(sorted(power(1.2)))).toEqual([]);
  });

  it("calls a lower exponent an improvement", () => {
    const smells = warnings(sorted([1e4, 1e4 * 10 ** 0.5, 1e5]));
    expect(kindsOf(smells)).toEqual(["complexity-change"]);
    expect(smells[0]?.evidence).toMatch(/exponent 1\.00 → 0\.50/);
    expect(smells[0]?.hint).toMatch(/complexity improvement/);
  });

  it("stays silent when base and head scale alike", () => {
    expect(warnings(sorted(linear))).toEqual([]);
  });

  it("stays silent on a uniform 2× slowdown: a regression, not a complexity change", () => {
    const suite = sorted(linear.map((t) => 2 * t));
    expect(warnings(suite)).toEqual([]);
    expect(reportOf(suite).counts.regressed).toBe(3);
  });

  it("with one run per side needs twice the change (0.6)", () => {
    const power = (e: number): number[] => SIZES.map((n) => 1e4 * (n / 100) ** e);
    expect(warnings(sorted(power(1.45), 1))).toEqual([]);
    const smells = warnings(sorted(power(2), 1));
    expect(kindsOf(smells)).toEqual(["complexity-change"]);
    expect(smells[0]?.evidence).not.toMatch(/paired rounds/);
  });
});

describe("high-variance", () => {
  it("raises when the within-run robust CV is above 20 %", () => {
    const suite = shapedSuite({ seed: 8, benchmarks: [{ id: "io/read", ns: 5000, spread: 0.3 }] });
    const smells = warnings(suite);
    expect(kindsOf(smells)).toEqual(["high-variance"]);
    expect(smells[0]?.benchmarks).toEqual(["io/read"]);
    expect(smells[0]?.evidence).toMatch(
      /^head: within-run spread .* above 20 %: io\/read \d\d\.\d %$/,
    );
  });

  it.each([0.02, 0.15])("stays silent at a spread of %s", (spread) => {
    const suite = shapedSuite({ seed: 8, benchmarks: [{ id: "io/read", ns: 5000, spread }] });
    expect(warnings(suite)).toEqual([]);
  });

  const noalloc = (shape: SampleShape, extra: Partial<ShapedBenchmark> = {}) =>
    shapedSuite({
      seed: 7,
      benchmarks: [{ id: "10_bytes/encode_noalloc", ns: 300, shape, ...extra }],
    });

  it("raises the drift variant when per-iteration time rises with the sample's position", () => {
    // bs58's encode_bs58_noalloc appends to one String that grows every iteration; under
    // Criterion's linear sampling sample j has j·d iterations, so later samples are slower.
    // A 1 → 1.5 ramp keeps the robust CV near 15 %: only the drift check can see it.
    const smells = warnings(noalloc(rising(0.5)));
    expect(kindsOf(smells)).toEqual(["high-variance"]);
    expect(smells[0]?.benchmarks).toEqual(["10_bytes/encode_noalloc"]);
    expect(smells[0]?.evidence).toMatch(/rises with the sample's position/);
    expect(smells[0]?.evidence).toMatch(/rank correlation 0\.9\d/);
    expect(smells[0]?.hint).toMatch(/iter_batched/);
  });

  it("stays silent on the same rising values shuffled", () => {
    expect(warnings(noalloc(shuffledShape(rising(0.5))))).toEqual([]);
  });

  it("raises a drift only in at least half the runs", () => {
    const inRounds =
      (n: number): SampleShape =>
      (run) =>
        run.round <= n ? rising(0.5)(run) : lognormal(run);
    expect(kindsOf(warnings(noalloc(inRounds(3))))).toEqual(["high-variance"]);
    expect(warnings(noalloc(inRounds(2)))).toEqual([]);
  });

  it("ignores a rise in per-process samples (no iteration count behind the position)", () => {
    expect(warnings(noalloc(rising(0.5), { sampleKind: "per_process" }))).toEqual([]);
  });
});

describe("bimodal", () => {
  const alloc = (shape: SampleShape, seed = 9): ShapedSuite =>
    shapedSuite({ seed, benchmarks: [{ id: "alloc/vec", ns: 5000, spread: 0.01, shape }] });

  it("raises two tight modes 1.5× apart with 30 % of the samples in the upper one", () => {
    const smells = warnings(alloc(twoModes(1.5, 0.3)));
    expect(kindsOf(smells)).toEqual(["bimodal"]);
    expect(smells[0]?.benchmarks).toEqual(["alloc/vec"]);
    expect(smells[0]?.evidence).toBe(
      "head: the samples form two modes 1.50× apart (the smaller holds 30 % of them) in 5 of 5 runs",
    );
  });

  it("raises when half the runs or more show the two modes: 3 of 5, not 2 of 5", () => {
    const three = warnings(alloc(twoModes(1.5, 0.3, (round) => round <= 3)));
    expect(three.map((s) => s.evidence)).toEqual([expect.stringMatching(/in 3 of 5 runs$/)]);
    expect(warnings(alloc(twoModes(1.5, 0.3, (round) => round <= 2)))).toEqual([]);
  });

  it("stays silent when the smaller mode holds under 10 % or the modes are under 1.1× apart", () => {
    expect(warnings(alloc(twoModes(1.5, 0.08)))).toEqual([]);
    expect(warnings(alloc(twoModes(1.05, 0.3)))).toEqual([]);
  });

  it.each([1, 2, 3, 4, 5, 6])(
    "is not raised by a disturbed run: one tight mode and a smear of slow outliers (seed %i)",
    (seed) => {
      expect(warnings(alloc(smeared(0.25, 1.1, 3), seed))).toEqual([]);
    },
  );
});

describe("underpowered", () => {
  it("raises one smell per suite when the MDE exceeds the fail threshold, with a rounds estimate", () => {
    const noisy = (suite: string): ShapedBenchmark[] =>
      ["open", "query", "write"].map((name, i) => ({
        id: `${suite}/${name}`,
        suite,
        ns: 1e6 * (i + 1),
      }));
    const suite = shapedSuite({
      seed: 11,
      roundNoise: 0.03,
      benchmarks: [...noisy("db"), ...noisy("net")],
    });
    const smells = ofKind(smellsOf(suite), "underpowered");
    expect(smells.map((s) => [s.suite, s.benchmarks])).toEqual([
      ["db", ["db/open", "db/query", "db/write"]],
      ["net", ["net/open", "net/query", "net/write"]],
    ]);
    for (const s of smells) {
      expect(s.evidence).toMatch(
        /^3 of 3 benchmarks could miss a regression of \+6\.0 % \(twice the \+3\.0 % fail threshold\) with 5 rounds: median MDE \+[\d.]+ %, worst \+[\d.]+ %; about \d+ rounds would bring the median to \+6\.0 %/,
      );
      expect(s.fails).toBeUndefined();
    }
  });

  it("leaves out benchmarks that regressed: their change was big enough to see", () => {
    const suite = noisySuite([
      { id: "db/open", ns: 2e6 },
      { id: "db/query", ns: 4e5 },
      { id: "db/scan", ns: 8e6, headScale: 1.3 },
      { id: "db/write", ns: 1e6 },
    ]);
    const report = reportOf(suite);
    expect(report.benchmarks.find((e) => e.id === "db/scan")?.verdict).toBe("regressed");
    const smells = ofKind(smellsOf(suite), "underpowered");
    expect(smells.map((s) => s.benchmarks)).toEqual([["db/open", "db/query", "db/write"]]);
    expect(smells[0]?.evidence).toMatch(/^3 of 4 benchmarks/);
  });

  it("stays silent when head repeats base exactly (no noise in any paired difference)", () => {
    const suite = shapedSuite({ seed: 1, benchmarks: HEALTHY });
    const copy: ShapedSuite = {
      base: suite.base,
      head: suite.base.map((f) => ({
        source: `head-${f.source}`,
        summary: { ...f.summary, side: "head" },
      })),
    };
    expect(smellsOf(copy)).toEqual([]);
  });

  it("on report entries: above twice the threshold raises, at or below it and regressed entries do not", () => {
    const entry = (
      id: string,
      mde: number | null,
      verdict: "unchanged" | "regressed" = "unchanged",
    ) => makeEntry({ id, mde, verdict });
    expect(underpowered([entry("a", 0.04), entry("b", 0.06), entry("c", null)], 0.03, 5)).toEqual(
      [],
    );
    expect(underpowered([entry("a", 0.2, "regressed")], 0.03, 5)).toEqual([]);
    const [smell, ...rest] = underpowered(
      [entry("a", 0.09), entry("b", 0.09), entry("c", 0.2, "regressed"), entry("d", 0.01)],
      0.03,
      5,
    );
    expect(rest).toEqual([]);
    expect(smell?.benchmarks).toEqual(["a", "b"]);
    // The noise part (MDE − F) shrinks about as 1/√rounds: 5 × ((0.09 − 0.03) / 0.03)² = 20.
    expect(smell?.evidence).toBe(
      "2 of 4 benchmarks could miss a regression of +6.0 % (twice the +3.0 % fail threshold) with 5 rounds: median MDE +9.0 %, worst +9.0 %; about 20 rounds would bring the median to +6.0 % on this machine",
    );
  });

  it("writes an MDE of +1,000 % or more as a ratio and a hopeless number of rounds in words", () => {
    // A disturbed runner: the MDEs of "+135770058 %" and "about 8064 rounds" it once printed.
    const [smell] = underpowered(
      [makeEntry({ id: "a", mde: 1357700.58 }), makeEntry({ id: "b", mde: 2.4 })],
      0.03,
      12,
    );
    expect(smell?.evidence).toBe(
      "2 of 2 benchmarks could miss a regression of +6.0 % (twice the +3.0 % fail threshold) with 12 rounds: median MDE ×680,000, worst ×1,400,000; more rounds cannot reach that on this machine (it would take more than 100): the runner is too noisy",
    );
    // Under 1,000 % a percentage stays a percentage.
    const [moderate] = underpowered([makeEntry({ id: "a", mde: 9.9949 })], 0.03, 12);
    expect(moderate?.evidence).toContain("median MDE +999.5 %, worst +999.5 %");
  });

  it("is not raised from a single run per side", () => {
    expect(underpowered([makeEntry({ id: "a", mde: 0.5 })], 0.03, 1)).toEqual([]);
  });
});

describe("timer-resolution", () => {
  const one = (b: Omit<ShapedBenchmark, "id">): ShapedSuite =>
    shapedSuite({ seed: 10, benchmarks: [{ id: "noop", ...b }] });

  it("raises on 0.4 ns per iteration", () => {
    const smells = warnings(one({ ns: 0.4 }));
    expect(kindsOf(smells)).toEqual(["timer-resolution"]);
    expect(smells[0]?.evidence).toBe("head: under 1 ns per iteration (a few CPU cycles): noop");
    expect(smells[0]?.hint).toMatch(/black_box/);
  });

  it("raises on samples that take fewer than 10 % distinct values", () => {
    const smells = warnings(one({ ns: 25, shape: quantized([24, 25, 26]) }));
    expect(kindsOf(smells)).toEqual(["timer-resolution"]);
    expect(smells[0]?.evidence).toMatch(/fewer than 10 % distinct values.*: noop$/);
  });

  it.each([
    ["continuous 25 ns samples", { ns: 25 }],
    ["1.01 ns per iteration", { ns: 1.01 }],
    [
      "10 distinct values in 100 samples",
      { ns: 25, shape: quantized([20, 21, 22, 23, 24, 25, 26, 27, 28, 29]) },
    ],
    ["quantized runs of 19 samples", { ns: 25, samples: 19, shape: quantized([24, 25, 26]) }],
    [
      "quantized per-process samples",
      { ns: 25, sampleKind: "per_process" as const, shape: quantized([24, 25, 26]) },
    ],
  ])("stays silent on %s", (_, b) => {
    expect(warnings(one(b))).toEqual([]);
  });
});

describe("smell-suites builders", () => {
  it("write Criterion's metadata for the three id shapes", () => {
    expect(criterionMetadata("parse/100")).toEqual({
      group_id: "parse",
      value_str: "100",
      sampling_mode: "Linear",
    });
    expect(criterionMetadata("ops/list")).toEqual({
      group_id: "ops",
      function_id: "list",
      sampling_mode: "Linear",
    });
    expect(criterionMetadata("sort/unstable/1000")).toEqual({
      group_id: "sort",
      function_id: "unstable",
      value_str: "1000",
      sampling_mode: "Linear",
    });
  });

  it("are deterministic", () => {
    expect(shapedSuite({ seed: 5, benchmarks: HEALTHY })).toEqual(
      shapedSuite({ seed: 5, benchmarks: HEALTHY }),
    );
  });
});

describe("false alarms in large suites", () => {
  // Distinct, quiet functions spread between 1 µs and 1 ms: a few will sit within 3 % of each
  // other by chance, which must not read as a shared fixed cost.
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    "identical-timings stays silent on 60 unrelated quiet benchmarks (seed %i)",
    (seed) => {
      let x = seed * 7919;
      const next = (): number => {
        x = (x * 1103515245 + 12345) % 2147483648;
        return x / 2147483648;
      };
      const benchmarks: ShapedBenchmark[] = Array.from({ length: 60 }, (_, i) => ({
        id: `fn${i}/run`,
        ns: 1000 * 1000 ** next(),
        spread: 0.01,
      }));
      expect(kindsOf(warnings(shapedSuite({ seed, benchmarks })))).not.toContain(
        "identical-timings",
      );
    },
  );

  it("a fixed cost added to every size on head is flat-scaling, not a complexity improvement", () => {
    const suite = shapedSuite({
      seed: 5,
      benchmarks: sizeSeries("sort", SIZES, [10_000, 100_000, 1_000_000], {
        headTimes: [1_010_000, 1_100_000, 2_000_000],
      }),
    });
    const kinds = kindsOf(warnings(suite));
    expect(kinds).toContain("flat-scaling");
    expect(kinds).not.toContain("complexity-change");
  });

  it("keeps evidence within the report's 2,048 characters when ids are long", () => {
    const long = (i: number): string => `${"x".repeat(500)}${i}`;
    const suite = shapedSuite({
      seed: 9,
      benchmarks: Array.from({ length: 6 }, (_, i) => ({ id: long(i), ns: 0.4 + i * 0.01 })),
    });
    const smells = ofKind(warnings(suite), "timer-resolution");
    expect(smells).toHaveLength(1);
    expect(smells[0]?.evidence.length).toBeLessThanOrEqual(2048);
    expect(smells[0]?.evidence).toMatch(/… and 1 more$/);
    expect(reportOf(suite).verdict).not.toBe("error");
  });

  it("keeps a scaling smell's evidence within bounds when the group's name is 900 characters", () => {
    const stem = `ingest_${"y".repeat(900)}`;
    const suite = shapedSuite({ seed: 4, benchmarks: sizeSeries(stem, SIZES, [17e6, 19e6, 29e6]) });
    const [smell] = ofKind(warnings(suite), "flat-scaling");
    expect(smell?.evidence.length).toBeLessThanOrEqual(2048);
    expect(smell?.evidence).toContain("…");
  });
});
