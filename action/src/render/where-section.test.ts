import { describe, expect, it } from "vitest";
import { callgrindFixture as load } from "../../test/support/callgrind-fixtures.ts";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";
import { diffProfiles } from "../core/instruction-diff.ts";
import type { BenchReport, Where } from "../schemas/report.gen.ts";
import { validateReport } from "../schemas/validate-document.ts";
import { renderComment } from "./comment.ts";

const NORMALIZE = diffProfiles(load("normalize.base"), load("normalize.head"));
const FILES = {
  base: "where/1-base.callgrind",
  head: "where/1-head.callgrind",
  flame_diff: "where/1-flame-diff.svg",
};

function reportWith(wheres: readonly (readonly [string, Where])[]): BenchReport {
  return makeReport({
    verdict: "fail",
    benchmarks: [
      makeEntry({ id: "parse/100", suite: "micro", change: 0.001 }),
      ...wheres.map(([id, where]) =>
        makeEntry({ id, suite: "micro", change: 2, verdict: "regressed", where }),
      ),
    ],
  });
}

const NOTE = "Where could not be computed: not yet for gungraun suites (docs/where.md)";

describe("the comment's Where section", () => {
  it("folds a block under the table for each profiled regression, with its files, and notes the rest", () => {
    const report = reportWith([
      ["normalize", { diff: NORMALIZE, files: FILES, seconds: 9.5 }],
      ["counts::demo::fnv1a n4096", { note: NOTE }],
    ]);
    // A report with `where` is schema-valid: the comment renders what report.json holds.
    expect(validateReport(report, "report.json").benchmarks[1]?.where?.files).toEqual(FILES);
    const comment = renderComment(report);
    const section = comment.slice(comment.indexOf("**Where it regressed**"));
    expect(comment.indexOf("**Where it regressed**")).toBeGreaterThan(
      comment.indexOf("| <code>normalize</code>"),
    );
    expect(section).toContain(
      "<details><summary><code>normalize</code> — Where: +200.0 % instructions per iteration (229,460 → 688,370), most in <code>demo_crate::normalize</code></summary>",
    );
    expect(section).toContain(
      "| <code>demo_crate::normalize</code> | 229,451 | 688,360 | +458,909 (+200.0 %) |",
    );
    expect(section).toContain(
      "Callgrind files and a differential flame graph in the output folder: <code>where/1-base.callgrind</code>, <code>where/1-head.callgrind</code>, <code>where/1-flame-diff.svg</code>.",
    );
    expect(section).toContain(
      "- <code>counts::<!-- -->demo::fnv1a n4096</code>: Where could not be computed: not yet for gungraun suites &#40;docs/where.md&#41;",
    );
  });

  it("links the run's artifacts when there is a link", () => {
    const report = reportWith([["normalize", { diff: NORMALIZE, files: FILES }]]);
    const comment = renderComment(report, {
      artifactsUrl: "https://github.com/o/r/actions/runs/1",
    });
    expect(comment).toContain(
      "in the [run's artifacts](https://github.com/o/r/actions/runs/1): <code>where/1-base.callgrind</code>",
    );
  });

  it("escapes a hostile benchmark and function name", () => {
    const hostile = "x</code><img src=y>|`";
    const diff = {
      ...NORMALIZE,
      self: NORMALIZE.self.map((r) => ({ ...r, name: hostile })),
    };
    const comment = renderComment(reportWith([[hostile, { diff, files: FILES }]]));
    expect(comment).not.toContain("<img");
    expect(comment).not.toContain(hostile);
  });

  it("stays under the size cap: the blocks shrink to their summaries, then to one line", () => {
    const many = Array.from(
      { length: 40 },
      (_, i) => [`normalize/${i}`, { diff: NORMALIZE, files: FILES }] as const,
    );
    const report = reportWith(many);
    const full = renderComment(report);
    expect(full.match(/<details><summary><code>normalize\//g)).toHaveLength(40);
    for (const maxChars of [20_000, 8_000, 4_000]) {
      const capped = renderComment(report, { maxChars });
      expect(capped.length).toBeLessThanOrEqual(maxChars);
      expect(capped).toMatch(/Where it regressed/);
    }
    const tight = renderComment(report, { maxChars: 8_000 });
    expect(tight).not.toContain("<details><summary><code>normalize/");
  });

  it("says a Where carried from the measure job was profiled by that job, in the block and when shrunk", () => {
    const carried = { diff: NORMALIZE, files: FILES, from_measure_job: true } as const;
    const report = reportWith([
      ["normalize", carried],
      ["own", { diff: NORMALIZE, files: FILES }],
      ["noted", { note: NOTE, from_measure_job: true }],
    ]);
    validateReport(report, "report.json");
    const line =
      "Profiled by the measure job, from the pull request's code; shown as that job wrote it.";
    const section = (comment: string): string =>
      comment.slice(comment.indexOf("**Where it regressed**"));
    const blocks = section(renderComment(report)).split("</details>");
    expect(blocks[0]).toContain(`${line}\n\nCallgrind files and a differential flame graph`);
    expect(blocks[1]).not.toContain(line);
    expect(blocks[2]).toContain("&#40;docs/where.md&#41; (from the measure job)");
    const many = reportWith(
      Array.from({ length: 40 }, (_, i) => [`normalize/${i}`, carried] as const),
    );
    const summaries = section(renderComment(many, { maxChars: 20_000 }));
    expect(summaries).toMatch(/- <code>normalize\/0<\/code>: Where: .* \(from the measure job\)\n/);
    expect(renderComment(many, { maxChars: 8_000 })).toContain(
      "**Where it regressed:** 40 regression(s) profiled by the measure job; see report.json.",
    );
  });

  it("is absent when no regression has a where", () => {
    expect(renderComment(reportWith([]))).not.toContain("Where it regressed");
  });
});
