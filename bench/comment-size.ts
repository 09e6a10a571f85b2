// `node bench/comment-size.ts`: what a maintainer sees of the PR comment on real reports, for
// each verdict (the demo's fail, recorded bs58 A/A with ×2 in five benchmarks, the bs58 A/A
// recording as it is, tiny-bench's 15-round A/A): lines visible without opening a fold, the
// comment's bytes, red markers (🔴) against the benchmarks that fail, and whether any percentage
// of 1,000 % or more is left. Rendered as the gate renders it on a pull request (with commands).
import { renderComment } from "../action/src/render/comment.ts";
import type { BenchReport } from "../action/src/schemas/report.gen.ts";
import {
  demoCritcmpTable,
  demoReport,
  HEAD_SHA,
  inconclusiveReport,
  injectedReport,
  passReport,
  visibleLines,
} from "../action/test/support/comment-reports.ts";
import { writeResult } from "./support.ts";

const cases: readonly (readonly [string, () => Promise<BenchReport>, string | undefined])[] = [
  ["demo", () => Promise.resolve(demoReport()), demoCritcmpTable()],
  ["bs58 ×2 in five", injectedReport, undefined],
  ["bs58 A/A, 5 rounds", inconclusiveReport, undefined],
  ["tiny-bench A/A, 15 rounds", passReport, undefined],
];

const rows = [];
for (const [name, build, critcmpTable] of cases) {
  const report = await build();
  const body = renderComment(report, {
    marker: "<!-- benchgate:gate -->",
    commands: { headSha: HEAD_SHA },
    ...(critcmpTable === undefined ? {} : { critcmpTable }),
  });
  const failing = report.benchmarks.filter(
    (e) => e.verdict === "regressed" && e.secondary !== true,
  );
  const big = [...body.matchAll(/([\d,]+)(?:\.\d+)? ?%/gu)].filter(
    (m) => Number((m[1] ?? "").replaceAll(",", "")) >= 1000,
  );
  rows.push({
    report: name,
    verdict: report.verdict,
    benchmarks: report.counts.total,
    visible_lines: visibleLines(body).length,
    bytes: Buffer.byteLength(body),
    red_markers: (body.match(/🔴/gu) ?? []).length,
    failing_benchmarks: failing.length,
    percentages_of_1000_or_more: big.length,
  });
}
writeResult("comment-size", rows);
