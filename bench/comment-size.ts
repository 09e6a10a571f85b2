// `node bench/comment-size.ts`: what a maintainer sees of the PR comment on real reports, for
// each verdict (the demo's fail, recorded bs58 A/A with ×2 in five benchmarks, the bs58 A/A
// recording as it is, tiny-bench's 15-round A/A): lines visible without opening a fold, the
// comment's bytes, red markers (🔴) against the benchmarks that fail, and whether any percentage
// of 1,000 % or more is left. Rendered as the gate renders it on a pull request (with commands).
import {
  bigPercentages,
  COMMENT_CASES,
  prComment,
  visibleLines,
} from "../action/test/support/comment-reports.ts";
import { writeResult } from "./support.ts";

const rows = [];
for (const { label, build, critcmpTable } of COMMENT_CASES) {
  const report = await build();
  const body = prComment(report, critcmpTable);
  const failing = report.benchmarks.filter(
    (e) => e.verdict === "regressed" && e.secondary !== true,
  );
  rows.push({
    report: label,
    verdict: report.verdict,
    benchmarks: report.counts.total,
    visible_lines: visibleLines(body).length,
    bytes: Buffer.byteLength(body),
    red_markers: (body.match(/🔴/gu) ?? []).length,
    failing_benchmarks: failing.length,
    percentages_of_1000_or_more: bigPercentages(body).length,
  });
}
writeResult("comment-size", rows);
