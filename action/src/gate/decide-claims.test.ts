// Claims and head-to-head ratios through the whole decision: benchgate.yml (schema, then the
// judgement) → decide() → a report that passes our own schema, its verdict, and the comment.
// The summaries are real Criterion 0.8.2 runs of the tiny bench (two measured runs, each one
// process), used as two rounds on both sides.
import { beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../errors.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import type { HeadToHead } from "../core/ratios.ts";
import { ingestCriterionTree } from "../ingest/criterion/criterion-tree.ts";
import { ingest } from "../ingest/index.ts";
import { nodeFileReader } from "../io/node-files.ts";
import { validateConfig } from "../schemas/validate-document.ts";
import { decide } from "./decide.ts";
import { judgementFrom } from "./plan.ts";
import { FIXTURES } from "../../test/support/fixtures.ts";
import { errorOf } from "../../test/support/input-error.ts";

const NOW = new Date("2026-03-01T12:00:00Z");

async function rounds(side: "base" | "head"): Promise<SourcedSummary[]> {
  const out: SourcedSummary[] = [];
  for (const [round, baseline] of [
    [1, "base"],
    [2, "head"],
  ] as const) {
    const summary = await ingestCriterionTree(
      `${FIXTURES}/criterion-0.8.2`,
      { baseline, suite: "tiny", side, round },
      nodeFileReader,
    );
    out.push({ source: `${side} round ${round}`, summary });
  }
  return out;
}

function config(claims: unknown): ReturnType<typeof validateConfig> {
  return validateConfig({ version: 1, claims }, "benchgate.yml");
}

describe("decide with claims", () => {
  let measured: { base: SourcedSummary[]; head: SourcedSummary[] };
  beforeAll(async () => {
    measured = { base: await rounds("base"), head: await rounds("head") };
  });

  it("a claim that holds leaves the verdict alone and shows in the report and the comment", () => {
    const judgement = judgementFrom(
      config([{ faster: "sum_vec/1000", than: "sum_vec/10000", by: "≥ 5x" }]),
      "benchgate.yml",
      {},
    );
    const { report, markdown } = decide(judgement, measured, NOW);
    expect(report.claims).toHaveLength(1);
    expect(report.claims?.[0]).toMatchObject({ verdict: "holds", fails: false, rounds: 2 });
    expect(report.verdict).not.toBe("fail");
    expect(markdown).toContain(
      "✅ **Claims that hold:** <code>sum_vec/1000</code> faster than <code>sum_vec/10000</code> by ≥ 5x",
    );
  });

  it("a false claim fails the gate and says why", () => {
    const judgement = judgementFrom(
      config([
        { faster: "sum_vec/1000", than: "sum_vec/10000", by: "≥ 5x" },
        { faster: "sum_vec/1000", than: "sum_vec/10000", by: "≥ 95 %" },
      ]),
      "benchgate.yml",
      {},
    );
    const { report } = decide(judgement, measured, NOW);
    expect(report.verdict).toBe("fail");
    expect(report.claims?.map((c) => c.verdict)).toEqual(["holds", "false"]);
    expect(report.claims?.[0]?.level).toBeCloseTo(0.975, 12);
    expect(report.reasons.at(-1)).toMatch(
      /^claim 2 \("sum_vec\/1000" faster than "sum_vec\/10000" by ≥ 95 %\) is false: 11\.\d× over 2 head rounds/u,
    );
  });

  it("a claim on an id that was not run: fails, unless the run was filtered", () => {
    const document = config([{ faster: "sum_vec/100", than: "sum_vec/10000", by: "≥ 5x" }]);
    const full = decide(judgementFrom(document, "benchgate.yml", {}), measured, NOW).report;
    expect(full.verdict).toBe("fail");
    const filtered = decide(
      judgementFrom(document, "benchgate.yml", { filtered: true }),
      measured,
      NOW,
    ).report;
    expect(filtered.claims?.[0]).toMatchObject({ verdict: "unchecked", fails: false });
    expect(filtered.verdict).not.toBe("fail");
  });

  it("refuses a malformed claim, naming the file and the key", () => {
    const error = errorOf(() =>
      judgementFrom(
        config([{ faster: "sum_vec/1000", than: "sum_vec/10000", by: "5x" }]),
        "benchgate.yml",
        {},
      ),
    );
    expect(error.describe()).toBe(
      'benchgate.yml: /claims/0/by: claim 1: by: expected "≥" or ">=", a number and "x" (a factor) or "%" (time saved), such as "≥ 5x" or "≥ 24 %", got "5x": start with "≥" or ">=", e.g. "≥ 5x"',
    );
  });

  it("the schema refuses an unknown key of a claim", () => {
    expect(() => config([{ faster: "a", than: "b", by: "≥ 2x", because: "it is" }])).toThrow(
      InputError,
    );
  });

  it("head-to-head pairs: ratios on both sides in the report, never a failure", () => {
    const pairs: HeadToHead[] = [
      {
        suite: "tiny",
        benchmark: "sum_vec",
        reference: { variant: "10000", id: "sum_vec/10000" },
        other: { variant: "1000", id: "sum_vec/1000" },
      },
    ];
    const judgement = { ...judgementFrom(undefined, undefined, {}), headToHead: pairs };
    const { report, markdown } = decide(judgement, measured, NOW);
    const [pair] = report.head_to_head ?? [];
    expect(pair?.head.ratio).toBeGreaterThan(11);
    expect(pair?.head.ratio).toBeLessThan(11.6);
    expect(pair?.base.ratio).toBeCloseTo(pair?.head.ratio ?? 0, 12);
    expect(pair).toMatchObject({ unit: "ns", direction: "smaller_is_better", level: 0.95 });
    expect(report.claims).toBeUndefined();
    expect(markdown).toMatch(/<code>1000<\/code> 11\.\d× faster than <code>10000<\/code> \[/u);
  });

  it("a hyperfine suite's variants: the pairs come from the config, the ratios from the rounds", async () => {
    // hyperfine 1.15's `sleep 0.01` and `sleep 0.02` (one real run), as the variants fast and
    // slow of one command `sleep {variant}`, in two rounds per side.
    const document = validateConfig(
      {
        version: 1,
        suites: [
          {
            name: "cli",
            kind: "hyperfine",
            variants: [
              { name: "fast", value: "0.01" },
              { name: "slow", value: "0.02" },
            ],
            commands: [{ name: "sleep", command: "sleep {variant}" }],
          },
        ],
      },
      "benchgate.yml",
    );
    const judgement = judgementFrom(document, "benchgate.yml", {});
    expect(judgement.headToHead).toEqual([
      {
        suite: "cli",
        benchmark: "sleep",
        reference: { variant: "fast", id: "fast/sleep" },
        other: { variant: "slow", id: "slow/sleep" },
      },
    ]);
    const run = await ingest(
      "hyperfine",
      `${FIXTURES}/hyperfine-1.15/basic.json`,
      { suite: "cli", side: "head", round: 1 },
      nodeFileReader,
    );
    const ids = new Map([
      ["sleep 0.01", "fast/sleep"],
      ["sleep 0.02", "slow/sleep"],
    ]);
    const relabelled = run.benchmarks.map((b) => ({ ...b, id: ids.get(b.id) ?? b.id }));
    const side = (name: "base" | "head"): SourcedSummary[] =>
      [1, 2].map((round) => ({
        source: `${name} ${round}`,
        summary: { ...run, side: name, round, benchmarks: relabelled },
      }));
    const { report, markdown } = decide(judgement, { base: side("base"), head: side("head") }, NOW);
    const [pair] = report.head_to_head ?? [];
    expect(pair?.head.ratio).toBeGreaterThan(0.5);
    expect(pair?.head.ratio).toBeLessThan(0.6);
    expect(markdown).toMatch(/<code>slow<\/code> 1\.8\d× slower than <code>fast<\/code> \[/u);
  });
});
