// The comment as a maintainer reads it, on real reports (issue 27): the demo's (a real run of
// `npm run demo`, kept as a fixture) and the recorded bs58 suite (bench/data/aa-bs58-0.5.1, an
// A/A recording) with ×2 injected into five benchmarks' head. Each rule below was broken
// before: 72+ visible lines, a headline naming nothing, `445 → 683 ns` shown as +70.5 %,
// "+575577 %", 🔴 on secondary counts that cannot fail.
import { describe, expect, it } from "vitest";
import {
  bigPercentages,
  COMMENT_CASES,
  demoReport,
  HEAD_SHA,
  injectedReport,
  prComment,
  visibleLines,
} from "../../test/support/comment-reports.ts";
import type { BenchReport } from "../schemas/report.gen.ts";
import { renderComment } from "./comment.ts";

const demo = demoReport();

/** The text without the empty comments the escaper puts between "::" and the rest of a name. */
function unsplit(markdown: string): string {
  return markdown.replaceAll("<!-- -->", "");
}

const UNIT_NS: Readonly<Record<string, number>> = { ns: 1, µs: 1e3, ms: 1e6, s: 1e9 };

/** A cell's number: "1.81 µs" → 1810, "229,474 instructions" → 229474; NaN for "—". */
function cellValue(cell: string): number {
  const m = /^(−?[\d,]+(?:\.\d+)?)(?: (\S+))?/u.exec(cell.trim());
  if (m?.[1] === undefined) return Number.NaN;
  const n = Number(m[1].replaceAll(",", "").replace("−", "-"));
  return n * (UNIT_NS[m[2] ?? ""] ?? 1);
}

function changeValue(cell: string): number {
  const m = /^([+−]?[\d,]+(?:\.\d+)?) %/u.exec(cell.trim());
  return m?.[1] === undefined
    ? Number.NaN
    : Number(m[1].replaceAll(",", "").replace("−", "-")) / 100;
}

/** Rows of every table with base, head and change columns (the benchmark tables). */
function benchmarkRows(body: string): string[][] {
  const rows: string[][] = [];
  let header: string[] | undefined;
  for (const line of body.split("\n")) {
    if (!line.startsWith("| ")) {
      header = undefined;
      continue;
    }
    const cells = line.slice(2, -2).split(" | ");
    if (header === undefined) header = cells;
    else if (header[1] === "base" && header[3] === "change" && !cells[0]?.startsWith(":--"))
      rows.push(cells);
  }
  return rows;
}

/** The two failing reports: the demo's and bs58 with ×2 injected. */
const FAILS = COMMENT_CASES.filter((c) => c.shot.startsWith("comment-fail"));

describe.each(FAILS)("the comment on $label", ({ build, critcmpTable }) => {
  async function render(): Promise<{ report: BenchReport; body: string }> {
    const report = await build();
    return { report, body: prComment(report, critcmpTable) };
  }

  it("fits in 40 visible lines", async () => {
    const { body } = await render();
    expect(visibleLines(body).length).toBeLessThanOrEqual(40);
  });

  it("names what fails in the headline", async () => {
    const { report, body } = await render();
    const headline = unsplit(body.split("\n")[1] ?? "");
    const regressed = report.benchmarks
      .filter((e) => e.verdict === "regressed" && e.secondary !== true)
      .map((e) => e.id);
    expect(regressed.length).toBeGreaterThan(0);
    for (const id of regressed.slice(0, 3)) expect(headline).toContain(`<code>${id}</code>`);
    for (const g of report.golden.filter((x) => !x.ok))
      expect(headline).toContain(`golden output <code>${g.name}</code>`);
  });

  it("shows rows whose head/base − 1 is the change they state", async () => {
    const { body } = await render();
    const rows = benchmarkRows(body).filter(
      (r) => changeValue(r[3] ?? "") === changeValue(r[3] ?? ""),
    );
    expect(rows.length).toBeGreaterThan(10);
    for (const [name, base = "", head = "", change = ""] of rows) {
      const stated = changeValue(change);
      const shown = cellValue(head) / cellValue(base) - 1;
      if (!Number.isFinite(stated) || !Number.isFinite(shown)) continue;
      const tolerance = Math.max(0.015, 0.15 * Math.abs(stated));
      expect(
        Math.abs(shown - stated),
        `${name}: ${base} → ${head} shown as ${change}`,
      ).toBeLessThanOrEqual(tolerance);
    }
  });

  it("shows no percentage of 1,000 % or more anywhere", async () => {
    const { body } = await render();
    expect(bigPercentages(body)).toEqual([]);
  });

  it("puts red markers only on what fails the gate", async () => {
    const { report, body } = await render();
    const failing = new Set(
      report.benchmarks
        .filter((e) => e.verdict === "regressed" && e.secondary !== true)
        .map((e) => e.id),
    );
    const redLines = unsplit(body)
      .split("\n")
      .filter((l) => /🔴|❌/u.test(l));
    for (const line of redLines) {
      const isHeadline = line.startsWith("## ❌") && report.verdict === "fail";
      const isFailedRow =
        line.includes("🔴") && failing.has(/<code>(.*?)<\/code>/u.exec(line)?.[1] ?? "");
      const isFailedCheck = /^❌ \*\*Golden output\*\*|^\| ❌ \|/u.test(line);
      expect(isHeadline || isFailedRow || isFailedCheck, line).toBe(true);
    }
    expect(body.match(/🔴/gu)?.length ?? 0).toBe(failing.size);
  });

  it("puts the commands right under the why", async () => {
    const { body } = await render();
    const lines = body.split("\n");
    const why = lines.indexOf("**Why:**");
    const after = lines.slice(why + 1).findIndex((l) => !l.startsWith("- "));
    const next = lines.slice(why + 1 + after).find((l) => l.trim() !== "") ?? "";
    expect(next).toMatch(/`\/benchgate accept [0-9a-f]{40} <reason>`|`\/rebench [0-9a-f]{40}`/u);
    expect(body).toContain(`\`/rebench ${HEAD_SHA}\``);
  });

  it("keeps environment, noise, smells and critcmp in one folded Diagnostics block", async () => {
    const { body } = await render();
    expect(body.match(/<summary>Diagnostics<\/summary>/gu)).toHaveLength(1);
    const visible = visibleLines(body).join("\n");
    for (const word of ["**Noise:**", "**Environment:**", "**Smells:**", "critcmp", "**Notes:**"])
      expect(visible).not.toContain(word);
  });
});

describe("the commands", () => {
  it("offer the exact acceptance when only regressions fail, and never when a golden output does", async () => {
    const injected = renderComment(await injectedReport(), { commands: { headSha: HEAD_SHA } });
    expect(injected).toContain(`\`/benchgate accept ${HEAD_SHA} <reason>\``);
    const withGolden = renderComment(demo, { commands: { headSha: HEAD_SHA } });
    expect(withGolden).not.toContain("/benchgate accept");
  });

  it("reject a SHA that is not 40 hex digits", () => {
    expect(() => renderComment(demo, { commands: { headSha: "0d6ab69" } })).toThrow(RangeError);
  });
});
