// The report job carrying the measure job's Where onto its own decision: only the regressions it
// confirms itself get one, marked; nothing else in the measure job's report reaches its report.
import { describe, expect, it } from "vitest";
import { callgrindFixture as load } from "../../test/support/callgrind-fixtures.ts";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";
import { diffProfiles } from "../core/instruction-diff.ts";
import { renderComment } from "../render/comment.ts";
import type { BenchReport, Entry, Where } from "../schemas/report.gen.ts";
import { validateReport } from "../schemas/validate-document.ts";
import type { Decision } from "./decide.ts";
import { carryMeasuredWhere, measuredWheres } from "./measured-where.ts";

const PROFILED: Where = {
  diff: diffProfiles(load("normalize.base"), load("normalize.head")),
  files: {
    base: "where/1-base.callgrind",
    head: "where/1-head.callgrind",
    flame_diff: "where/1-flame-diff.svg",
  },
  seconds: 4.1,
};
const NOTE: Where = { note: "Where could not be computed: not yet for hyperfine suites" };
const COMMENT = { artifactsUrl: "https://github.com/o/r/actions/runs/7#artifacts" };

/** This job's decision, as decide() makes it: a report without Where, and its comment. */
function decision(benchmarks: readonly Entry[]): Decision {
  const report = validateReport(makeReport({ verdict: "fail", benchmarks: [...benchmarks] }), "t");
  return { report, markdown: renderComment(report, COMMENT), comment: COMMENT };
}

/** The measure job's report.json: its own verdicts, each entry with the Where it computed. */
function measureReport(wheres: readonly (readonly [Entry, Where])[]): BenchReport {
  return makeReport({
    verdict: "fail",
    benchmarks: wheres.map(([entry, where]) => ({ ...entry, where })),
  });
}

const regressed = (id: string, suite = "micro"): Entry =>
  makeEntry({ id, suite, change: 2, verdict: "regressed" });
const unchanged = (id: string, suite = "micro"): Entry => makeEntry({ id, suite, change: 0.001 });

function carry(ours: Decision, theirs: BenchReport): { decision: Decision; warnings: string[] } {
  const warnings: string[] = [];
  const carried = carryMeasuredWhere(ours, measuredWheres(theirs), (m) => warnings.push(m));
  return { decision: carried, warnings };
}

describe("carryMeasuredWhere", () => {
  it("gives a regression this job confirms the measure job's Where, marked, in the report and the comment", () => {
    const ours = decision([unchanged("parse"), regressed("normalize")]);
    const { decision: carried, warnings } = carry(
      ours,
      measureReport([[regressed("normalize"), PROFILED]]),
    );
    expect(warnings).toEqual([]);
    expect(carried.report.benchmarks.map((e) => e.where)).toEqual([
      undefined,
      { ...PROFILED, from_measure_job: true },
    ]);
    expect(carried.report.verdict).toBe(ours.report.verdict);
    expect(carried.report.counts).toEqual(ours.report.counts);
    expect(carried.comment).toBe(ours.comment);
    expect(carried.markdown).toBe(renderComment(carried.report, COMMENT));
    expect(carried.markdown).toContain("**Where it regressed**");
    expect(carried.markdown).toContain(
      "Profiled by the measure job, from the pull request's code; shown as that job wrote it.",
    );
    expect(carried.markdown).toContain(
      "in the [run's artifacts](https://github.com/o/r/actions/runs/7#artifacts): <code>where/1-base.callgrind</code>",
    );
  });

  it("gives none to an entry this job does not confirm, whatever the measure job decided", () => {
    const ours = decision([
      unchanged("normalize"),
      makeEntry({ id: "parse", suite: "micro", change: 0.2, verdict: "inconclusive" }),
      makeEntry({ id: "count", suite: "micro", change: 2, verdict: "regressed", secondary: true }),
    ]);
    const { decision: carried, warnings } = carry(
      ours,
      measureReport([
        [regressed("normalize"), PROFILED],
        [regressed("parse"), NOTE],
        [regressed("count"), NOTE],
      ]),
    );
    expect(warnings).toEqual([]);
    expect(carried).toBe(ours);
    expect(carried.markdown).not.toContain("Where it regressed");
  });

  it("ignores a Where for a benchmark this job did not decide, and one from another suite", () => {
    const ours = decision([regressed("normalize", "micro")]);
    const { decision: carried } = carry(
      ours,
      measureReport([
        [regressed("normalize", "other"), PROFILED],
        [regressed("planted", "micro"), NOTE],
      ]),
    );
    expect(carried).toBe(ours);
    expect(carried.report.benchmarks.map((e) => e.where)).toEqual([undefined]);
  });

  it("carries a note as a note, marked", () => {
    const ours = decision([regressed("normalize")]);
    const { decision: carried } = carry(ours, measureReport([[regressed("normalize"), NOTE]]));
    expect(carried.report.benchmarks[0]?.where).toEqual({ ...NOTE, from_measure_job: true });
    expect(carried.markdown).toContain(
      "- <code>normalize</code>: Where could not be computed: not yet for hyperfine suites (from the measure job)",
    );
  });

  it("a Where the schema refuses costs nothing but itself: warned, and the decision kept as it was", () => {
    const ours = decision([regressed("normalize")]);
    // Only a report that passed the schema is read in report mode; this one never did.
    const bad = { note: "x".repeat(5000) } as Where;
    const { decision: carried, warnings } = carry(
      ours,
      measureReport([[regressed("normalize"), bad]]),
    );
    expect(carried).toBe(ours);
    expect(warnings).toEqual([
      expect.stringMatching(/^benchgate: the measure job's Where was left out of the report: /),
    ]);
  });
});
