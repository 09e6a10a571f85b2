import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BenchReport, ClaimResult, Entry, HeadToHeadResult } from "../schemas/report.gen.ts";
import { GITHUB_MAX_COMMENT_CHARS, renderComment } from "./comment.ts";
import { SPLIT } from "./escape-markdown.ts";
import { countVerdicts, makeEntry, makeReport } from "../../test/support/report-factory.ts";

const MARKER = "<!-- benchgate:gate -->";
const HEAD_SHA = "0123456789abcdef0123456789abcdef01234567";

function unchanged(n: number, prefix = "parse"): Entry[] {
  return Array.from({ length: n }, (_, i) =>
    makeEntry({ id: `${prefix}/${i}`, change: ((i % 7) - 3) / 1000, verdict: "unchanged" }),
  );
}

function failReport(): BenchReport {
  return makeReport({
    verdict: "fail",
    reasons: [
      "2 benchmarks regressed beyond +3.0 % (fib/30, throughput/encode)",
      "budget fib/*: p95 < 25ms broken",
    ],
    benchmarks: [
      makeEntry({
        id: "fib/30",
        change: 0.082,
        ci: [0.061, 0.104],
        verdict: "regressed",
        q: 0.001,
      }),
      makeEntry({
        id: "throughput/encode",
        unit: "B/s",
        direction: "bigger_is_better",
        base: { value: 5.25e8, per_round: [] },
        head: { value: 4.83e8, per_round: [] },
        change: -0.08,
        ci: [-0.11, -0.05],
        verdict: "regressed",
        notes: ["throughput is bigger-is-better: a drop is a regression"],
      }),
      makeEntry({ id: "fib/20", change: 0.035, ci: [0.012, 0.058], verdict: "regressed", q: 0.02 }),
      makeEntry({ id: "sort/1k", change: -0.15, ci: [-0.18, -0.12], verdict: "improved" }),
      makeEntry({ id: "sort/10k", change: 0.021, ci: [-0.01, 0.052], verdict: "inconclusive" }),
      makeEntry({ id: "sort/100k", change: 0.004, ci: [-0.03, 0.041], verdict: "inconclusive" }),
      makeEntry({ id: "hash/new", base: null, change: null, ci: null, verdict: "new" }),
      makeEntry({ id: "hash/old", head: null, change: null, ci: null, verdict: "missing" }),
      ...unchanged(4),
    ],
  });
}

function checksReport(): BenchReport {
  return makeReport({
    verdict: "fail",
    reasons: ["budget broken", "golden output changed: cli-help"],
    benchmarks: [makeEntry({ id: "fib/30", change: 0.01, verdict: "unchanged" })],
    budgets: [
      {
        benchmark: "fib/10",
        rule: "fib/*: p95 < 25ms",
        statistic: "p95",
        limit: 25e6,
        actual: 12e6,
        unit: "ns",
        ok: true,
      },
      {
        benchmark: "fib/30",
        rule: "fib/*: p95 < 25ms",
        statistic: "p95",
        limit: 25e6,
        actual: 27.1e6,
        unit: "ns",
        ok: false,
        message: "exceeded by 8.4 %",
      },
      { benchmark: "fib/30", rule: "max_regression: 5%", statistic: "median", ok: true },
      {
        benchmark: "fib/20",
        rule: "fib/*: p95 < 25ms",
        statistic: "p95",
        limit: 25e6,
        actual: 26e6,
        unit: "ns",
        ok: true,
        close: true,
        message:
          "p95 26 ms is close to the budget < 25 ms: past the limit by 4 %, within the close band of 20%",
      },
    ],
    golden: [
      {
        name: "cli-help",
        ok: true,
        expected: "a".repeat(64),
        actual: "a".repeat(64),
        exit_code: 0,
      },
      {
        name: "render-table",
        ok: false,
        expected: "0123456789abcdef".repeat(4),
        actual: "fedcba9876543210".repeat(4),
        exit_code: 0,
        message: "stdout differs",
        diff: "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n-| a | b |\n+| a | c |\n ```\n",
      },
    ],
    smells: [
      {
        kind: "bimodal",
        benchmarks: ["fib/30", "sort/1k"],
        evidence: "samples form two clusters 9 % apart",
        hint: "check for CPU frequency changes",
      },
    ],
  });
}

const CLAIM: ClaimResult = {
  faster: "lookup/binary",
  than: "lookup/linear",
  by: "≥ 10x",
  bound: 10,
  ratio: 31.24,
  interval: [29.51, 33.08],
  level: 0.975,
  rounds: 5,
  unit: "ns",
  direction: "smaller_is_better",
  verdict: "holds",
  fails: false,
  reason: "31.2× over 5 head rounds, [29.5×, 33.1×] (97.5 %): the lower end is at least 10×",
};

/** Two claims: one holds, one false (the gate fails), one inconclusive and one on a typo. */
function claims(): ClaimResult[] {
  return [
    {
      ...CLAIM,
      by: "≥ 40x",
      bound: 40,
      verdict: "false",
      fails: true,
      reason: "even the upper end is below 40×",
    },
    CLAIM,
    {
      ...CLAIM,
      faster: "parse/simd",
      than: "parse/scalar",
      by: "≥ 24 %",
      bound: 1 / 0.76,
      ratio: 1.38,
      interval: [1.21, 1.57],
      verdict: "inconclusive",
      reason: "the interval straddles 1.32×; more rounds would decide it",
    },
    {
      ...CLAIM,
      faster: "lookup/binray",
      ratio: null,
      interval: null,
      rounds: 0,
      verdict: "unchecked",
      fails: true,
      reason: '"lookup/binray" was not measured on head: check the id (claims name exact ids)',
    },
  ];
}

const PAIR: HeadToHeadResult = {
  suite: "http",
  benchmark: "hello req/s",
  reference: { variant: "python", id: "python/hello req/s" },
  other: { variant: "rust", id: "rust/hello req/s" },
  unit: "req/s",
  direction: "bigger_is_better",
  level: 0.95,
  head: { ratio: 8.13, interval: [7.62, 8.68], rounds: 5 },
  base: { ratio: 7.9, interval: [7.41, 8.42], rounds: 5 },
};

function headToHead(): HeadToHeadResult[] {
  return [
    PAIR,
    {
      ...PAIR,
      benchmark: "hello p99",
      reference: { variant: "python", id: "python/hello p99" },
      other: { variant: "rust", id: "rust/hello p99" },
      unit: "ns",
      direction: "smaller_is_better",
      head: { ratio: 3.21, interval: [2.9, 3.55], rounds: 5 },
      base: { ratio: 0.5, interval: [0.4, 0.625], rounds: 5 },
    },
    {
      ...PAIR,
      other: { variant: "go", id: "go/hello req/s" },
      head: { ratio: 4.4, interval: null, rounds: 1, reason: "one round: no interval" },
      base: {
        ratio: null,
        interval: null,
        rounds: 0,
        reason: '"go/hello req/s" was not measured on base',
      },
    },
  ];
}

const SCENARIOS: Record<string, () => [BenchReport, Parameters<typeof renderComment>[1]]> = {
  pass: () => [
    makeReport({
      benchmarks: [
        makeEntry({ id: "sort/1k", change: -0.052, ci: [-0.07, -0.034], verdict: "improved" }),
        ...unchanged(5),
      ],
    }),
    { marker: MARKER },
  ],
  fail: () => [
    failReport(),
    {
      marker: MARKER,
      artifactsUrl: "https://github.com/o/r/actions/runs/1",
      commands: { headSha: HEAD_SHA },
    },
  ],
  accepted: () => [
    makeReport({
      verdict: "fail",
      reasons: ["1 benchmark regressed by at least 3.0 %"],
      benchmarks: [
        makeEntry({ id: "fib/30", change: 0.082, ci: [0.061, 0.104], verdict: "regressed" }),
        ...unchanged(3),
      ],
    }),
    {
      marker: MARKER,
      commands: {
        headSha: HEAD_SHA,
        accepted: { login: "maintainer", reason: "the safer parser is worth it", ids: ["fib/30"] },
      },
    },
  ],
  inconclusive: () => [
    makeReport({
      verdict: "inconclusive",
      reasons: ["1 benchmark could have regressed by more than +3.0 %"],
      benchmarks: [
        makeEntry({
          id: "io/read",
          change: 0.02,
          ci: [-0.015, 0.055],
          verdict: "inconclusive",
          mde: 0.061,
        }),
        ...unchanged(3),
      ],
      noise: {
        median_sd: 0.041,
        prior_sd: 0.04,
        prior_df: null,
        median_mde: 0.061,
        period_effect: null,
      },
    }),
    { marker: MARKER, commands: { headSha: HEAD_SHA } },
  ],
  "single-run": () => [
    makeReport({
      mode: "single-run",
      settings: { ...makeReport().settings, rounds: 1, crossover: false },
      rounds: [{ round: 1, first: "unknown" }],
      noise: {
        median_sd: null,
        prior_sd: null,
        prior_df: null,
        median_mde: null,
        period_effect: null,
      },
      benchmarks: [
        makeEntry({
          id: "fib/30",
          change: 0.12,
          ci: null,
          verdict: "inconclusive",
          unverified: true,
          mde: null,
          rounds: 1,
        }),
        ...unchanged(2).map((e) => ({ ...e, unverified: true, ci: null, mde: null, rounds: 1 })),
      ],
    }),
    { marker: MARKER },
  ],
  "environment-mismatch": () => [
    makeReport({
      verdict: "inconclusive",
      reasons: ["base and head ran in different environments"],
      environment: {
        mismatch: true,
        differences: ["cpu_model: AMD EPYC 7763 ≠ Intel Xeon 8375C", "rustc: 1.82.0 ≠ 1.83.0"],
        warnings: ["governor is powersave, not performance", "turbo boost is on"],
        base: { cpu_model: "AMD EPYC 7763", rustc: "1.82.0" },
        head: {
          runner_name: "bench-1",
          cpu_model: "Intel Xeon 8375C",
          logical_cpus: 4,
          governor: "powersave",
          turbo: true,
          kernel: "6.8.0-45-generic",
          rustc: "1.83.0",
          memory_bytes: 16 * 2 ** 30,
          load_average: [0.12, 0.3, 0.25],
        },
      },
    }),
    { marker: MARKER },
  ],
  "budgets-golden-smells": () => [
    checksReport(),
    {
      marker: MARKER,
      critcmpTable: "group    base    head\n-----    ----    ----\nfib/30   1.00   1.02 ±0.5%\n",
      artifactsUrl: "https://github.com/o/r/actions/runs/2",
    },
  ],
  "claims-head-to-head": () => [
    makeReport({
      verdict: "fail",
      reasons: [
        'claim 1 ("lookup/binary" faster than "lookup/linear" by ≥ 40x) is false: even the upper end is below 40×',
      ],
      benchmarks: unchanged(3),
      claims: claims(),
      head_to_head: headToHead(),
    }),
    { marker: MARKER },
  ],
  error: () => [
    makeReport({
      verdict: "error",
      reasons: ["head: target/criterion has no results for baseline head"],
      benchmarks: [],
      noise: {
        median_sd: null,
        prior_sd: null,
        prior_df: null,
        median_mde: null,
        period_effect: null,
      },
    }),
    { marker: MARKER },
  ],
};

/** Cells in a Markdown table row: raw pipes, minus the two at the ends. */
function columns(row: string): number {
  return row.split("|").length - 2;
}

function tableRows(body: string): string[] {
  return body.split("\n").filter((line) => line.startsWith("| "));
}

describe("renderComment snapshots", () => {
  for (const [name, build] of Object.entries(SCENARIOS)) {
    it(name, async () => {
      const [report, options] = build();
      const body = renderComment(report, options);
      await expect(body).toMatchFileSnapshot(`__snapshots__/comment-${name}.md`);
      expect(body.startsWith(`${MARKER}\n`)).toBe(true);
      expect(body.split(MARKER)).toHaveLength(2);
    });
  }
});

describe("renderComment content", () => {
  it("lists regressed first by size, then improved, new, missing; inconclusive folded apart", () => {
    const body = renderComment(failReport());
    const [visible = "", folded = ""] = body.split(
      "<details><summary>The 2 inconclusive rows</summary>",
    );
    const ids = (part: string): (string | undefined)[] =>
      tableRows(part)
        .filter((row) => row.startsWith("| <code>"))
        .map((row) => /<code>(.*?)<\/code>/u.exec(row)?.[1]);
    expect(ids(visible)).toEqual([
      "fib/30",
      "throughput/encode",
      "fib/20",
      "sort/1k",
      "hash/new",
      "hash/old",
    ]);
    expect(ids(folded.split("</details>")[0] ?? "")).toEqual(["sort/10k", "sort/100k"]);
    expect(body).toContain("🟡 **2 inconclusive benchmarks**");
    expect(body).not.toContain("parse/0");
  });

  it("names what fails in the headline, every kind of it", () => {
    const headline = renderComment(failReport()).split("\n")[0] ?? "";
    expect(headline).toBe(
      "## ❌ benchgate: fail — <code>fib/30</code> +8.2 %, <code>throughput/encode</code> −8.0 %, <code>fib/20</code> +3.5 %; missing <code>hash/old</code>",
    );
    const checks = renderComment(checksReport()).split("\n")[0] ?? "";
    expect(checks).toContain("budget <code>fib/30</code> fib/&#42;: p95 &lt; 25ms");
    expect(checks).toContain("golden output <code>render-table</code> changed");
  });

  it("puts failed budgets and changed golden outputs first, passing ones in one line", () => {
    const body = renderComment(checksReport());
    const budgetRows = tableRows(body).filter((r) => r.includes("fib/") && /✅|❌|⚠️|➖/u.test(r));
    expect(budgetRows[0]).toContain("❌");
    expect(budgetRows.some((r) => r.startsWith("| ✅"))).toBe(false);
    expect(body.indexOf("❌ **Golden output** <code>render-table</code>")).toBeLessThan(
      body.indexOf("✅ **Golden outputs:** unchanged"),
    );
  });

  it("shows a budget that checked nothing as not checked, never as met", () => {
    // Before: "### Budgets — all of 3 met" and ✅ on the two rules that measured nothing.
    const unchecked = { statistic: "median", limit: 1e9, unit: "ns", actual: null, ok: true };
    const report = makeReport({
      budgets: [
        { benchmark: "a", rule: "median < 1s", ...unchecked, actual: 5e8 },
        {
          benchmark: "b/*",
          rule: "median < 1s",
          ...unchecked,
          message: 'budget rule 2 ("b/*") not checked: this run was filtered',
        },
        { benchmark: "c", rule: "max_regression 5%", ...unchecked, limit: 0.05 },
      ],
    });
    const body = renderComment(report);
    expect(body).toContain("### Budgets — 1 of 3 met, 2 not checked\n");
    const rows = tableRows(body).filter((r) => /<code>[abc]/.test(r));
    expect(rows.map((r) => r.split(" | ")[0])).toEqual(["| ➖", "| ➖"]);
    expect(rows[0]).toContain("not checked: this run was filtered");
    expect(renderComment(makeReport({ budgets: [report.budgets[0]!] }))).toContain(
      "✅ **Budgets:** all 1 met\n",
    );
  });

  it("fences a hostile golden diff and critcmp table so they cannot break out", () => {
    const report = checksReport();
    const golden = report.golden[1];
    if (golden === undefined) throw new Error("fixture");
    golden.diff = "````\n</details>\n<img src=x onerror=alert(1)>\n@org/team #1";
    const body = renderComment(report, { critcmpTable: "`````\n</details>\n@here" });
    expect(body).toContain("`````diff\n````\n</details>");
    expect(body).toContain("``````text\n`````\n</details>\n@here\n``````");
  });

  it("shows only https artifact links", () => {
    const report = makeReport();
    expect(renderComment(report, { artifactsUrl: "javascript:alert(1)" })).not.toContain(
      "javascript",
    );
    expect(renderComment(report, { artifactsUrl: "http://x.test/a" })).not.toContain("x.test");
    expect(renderComment(report, { artifactsUrl: "https://x.test/a (b)" })).toContain(
      "(https://x.test/a%20%28b%29)",
    );
  });

  it("rejects invalid options", () => {
    const report = makeReport();
    expect(() => renderComment(report, { marker: "<!-- benchgate:x --> @evil" })).toThrow(
      RangeError,
    );
    expect(() => renderComment(report, { marker: "<!-- other -->" })).toThrow(/marker/u);
    expect(() => renderComment(report, { maxChars: 70_000 })).toThrow(/maxChars/u);
    expect(() => renderComment(report, { maxChars: 10 })).toThrow(RangeError);
  });
});

const HOSTILE_NAMES = [
  "a|b|c",
  "tick`s``",
  "```\nfenced",
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  "</details></summary></table>",
  "[link](javascript:x)",
  "@org/team",
  "@user @everyone",
  "#123",
  "owner/repo#1",
  "GH-12",
  "https://github.com/o/r/issues/1",
  "evil\u202Eexe.rs",
  "zero\u200Bwidth\uFEFF",
  "new\nline\rcr",
  "<!-- benchgate:gate -->",
  "\u001b[31mred\u001b[0m",
  "🦀 emoji",
  "x".repeat(10_240),
];

function hostileReport(names: readonly string[]): BenchReport {
  const benchmarks = names.map((id, i) =>
    makeEntry({
      id,
      suite: `${id}-suite`,
      unit: i % 3 === 0 ? id.slice(0, 32) || "u" : "ns",
      change: 0.05 + i / 1000,
      verdict:
        (["regressed", "inconclusive", "improved", "new", "missing"] as const)[i % 5] ?? "new",
      notes: [id],
    }),
  );
  return makeReport({
    verdict: "fail",
    reasons: names.map((n) => `reason ${n}`),
    benchmarks,
    environment: {
      mismatch: true,
      differences: names.slice(0, 5),
      warnings: names.slice(5, 10),
      head: { runner_name: names[0] ?? "", cpu_model: names[1] ?? "", kernel: names[2] ?? "" },
    },
    budgets: names.map((n) => ({
      benchmark: n,
      rule: n,
      statistic: n.slice(0, 32),
      unit: n.slice(0, 32),
      limit: 1,
      actual: 2,
      ok: false,
      message: n,
    })),
    golden: names.map((n) => ({ name: n.slice(0, 256) || "g", ok: false, message: n, diff: n })),
    smells: names.map((n) => ({ kind: "noisy", benchmarks: [n], evidence: n, hint: n })),
    claims: names.slice(0, 100).map((n, i) => ({
      ...CLAIM,
      faster: n,
      than: n,
      by: n.slice(0, 64),
      unit: n.slice(0, 32) || "u",
      verdict: (["holds", "false", "inconclusive", "unchecked"] as const)[i % 4] ?? "holds",
      fails: i % 2 === 1,
      reason: n,
    })),
    head_to_head: names.map((n, i) => ({
      ...PAIR,
      suite: n.slice(0, 256),
      benchmark: n,
      reference: { variant: n.slice(0, 256), id: n },
      other: { variant: n.slice(0, 256), id: n },
      unit: n.slice(0, 32) || "u",
      direction: i % 2 === 0 ? ("bigger_is_better" as const) : ("smaller_is_better" as const),
      base: { ratio: null, interval: null, rounds: 0, reason: n },
    })),
    generator: { name: "benchgate", version: "@everyone" },
  });
}

/** The body without the contents of fenced code blocks, where GitHub renders nothing. */
function outsideCode(body: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of body.split("\n")) {
    if (fence === undefined) {
      const open = /^(`{3,})/u.exec(line);
      if (open?.[1] !== undefined) fence = open[1];
      else out.push(line);
    } else if (line === fence) {
      fence = undefined;
    }
  }
  expect(fence).toBeUndefined(); // every block is closed
  return out.join("\n");
}

function expectInert(full: string): void {
  const body = outsideCode(full);
  const withoutOurs = body.replaceAll(SPLIT, "");
  // Mentions, references and autolinks need the characters next to each other in one text node.
  expect(body).not.toMatch(/@\w/u);
  expect(withoutOurs).not.toMatch(/<(img|script|\/?table|a )/iu);
  expect(body).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F\uFEFF]/u);
  expect(body).not.toContain("\u001b");
  expect(body).not.toMatch(/javascript:x\)/u);
  expect(full.split("<!-- benchgate:")).toHaveLength(2);
  // Every table keeps its column count.
  let expected = 0;
  for (const line of body.split("\n")) {
    if (!line.startsWith("|")) {
      expected = 0;
      continue;
    }
    if (expected === 0) expected = columns(line);
    expect(columns(line)).toBe(expected);
  }
}

describe("renderComment with hostile input", () => {
  it("keeps every hostile name inert (docs/threat-model.md, O1 and O2)", async () => {
    const body = renderComment(hostileReport(HOSTILE_NAMES), {
      marker: MARKER,
      title: "@org/team #1 <b>",
    });
    expectInert(body);
    expect(body.startsWith(`${MARKER}\n`)).toBe(true);
    expect(body).toContain("&lt;img src=x onerror=alert&#40;1&#41;&gt;");
    expect(body).toContain(`@${SPLIT}org/team`);
    await expect(body).toMatchFileSnapshot("__snapshots__/comment-hostile.md");
  });

  it("property: random names never break out", () => {
    const name = fc.string({ unit: "binary", minLength: 1, maxLength: 40 });
    const nasty = fc.constantFrom(...HOSTILE_NAMES.slice(0, -1));
    fc.assert(
      fc.property(fc.array(fc.oneof(name, nasty), { minLength: 1, maxLength: 12 }), (names) => {
        const body = renderComment(hostileReport(names), { marker: MARKER, maxChars: 8_000 });
        expect(body.length).toBeLessThanOrEqual(8_000);
        expectInert(body);
      }),
      { numRuns: 150 },
    );
  });
});

describe("renderComment length cap", () => {
  function hugeReport(n: number): BenchReport {
    const verdicts = ["regressed", "inconclusive", "improved", "unchanged"] as const;
    const benchmarks = Array.from({ length: n }, (_, i) => {
      const verdict = verdicts[i % 4] ?? "unchanged";
      const change = verdict === "improved" ? -0.05 - i / 1e6 : 0.04 + i / 1e6;
      return makeEntry({ id: `suite-${i % 50}/bench_with_a_long_name_${i}`, change, verdict });
    });
    return makeReport({ verdict: "fail", benchmarks, counts: countVerdicts(benchmarks) });
  }

  it("keeps a 20,000-benchmark report under GitHub's limit, regressed rows first, with a cut note", () => {
    const report = hugeReport(20_000);
    const body = renderComment(report, { marker: MARKER, critcmpTable: "row\n".repeat(30_000) });
    expect(body.length).toBeLessThanOrEqual(65_000);
    expect(body.length).toBeLessThan(GITHUB_MAX_COMMENT_CHARS);
    expect(body).toMatch(
      /… [\d,]+ more rows not shown \([\d,]+ regressed, 5,000 improved\); see report\.json\./u,
    );
    const shown = tableRows(body.split("🟡 **")[0] ?? "").filter((r) => r.startsWith("| <code>"));
    expect(shown.length).toBeGreaterThan(100);
    expect(shown.every((row) => row.includes("regressed"))).toBe(true);
    // The worst regression comes first.
    expect(shown[0]).toContain("bench_with_a_long_name_19996");
    expect(body).toContain("**Noise:**");
    expect(body.trimEnd().endsWith("</sub>")).toBe(true);
  });

  it("shortens the other sections when they alone would not fit", () => {
    const names = Array.from({ length: 400 }, (_, i) => `${"@#|`".repeat(40)}${i}`);
    const report = hostileReport(names);
    for (const maxChars of [1_000, 4_000, 20_000, 65_000]) {
      const body = renderComment(report, {
        marker: MARKER,
        maxChars,
        critcmpTable: "x|`\n".repeat(50_000),
      });
      expect(body.length).toBeLessThanOrEqual(maxChars);
      expect(body.startsWith(MARKER)).toBe(true);
      expectInert(body);
    }
  });
});

describe("the head environment line", () => {
  it.each([
    ["notsupported", "SMT not supported"],
    ["forceoff", "SMT forced off"],
    ["on", "SMT on"],
    ["something new", "SMT something new"],
  ])("writes the kernel's SMT state %j in words", (smt, shown) => {
    const base = makeReport();
    const body = renderComment({ ...base, environment: { ...base.environment, head: { smt } } });
    expect(body).toContain(shown);
    expect(body).not.toMatch(/SMT notsupported|SMT forceoff/u);
  });
});
