// The PR comment as GitHub shows it (issue 27): rendered as GitHub-flavoured Markdown, with the
// raw HTML it carries, into a comment-wide box in headless Chromium, then read back from the DOM
// the way a reader sees it: folded blocks closed, tables drawn as tables, no Markdown or HTML
// syntax leaking into the text, what fails in the headline and the first table. A screenshot of
// each is written (to BENCHGATE_SCREENSHOTS_DIR when set: scripts/screenshots.ts puts them in
// docs/images).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BenchReport } from "../src/schemas/report.gen.ts";
import { launchChromium } from "./support/chromium.ts";
import { COMMENT_CASES, HEAD_SHA, prComment } from "./support/comment-reports.ts";
import { COMMENT_WIDTH, githubCommentPage } from "./support/github-markdown.ts";

interface Seen {
  /** The comment's text as rendered: closed <details> contribute their summary only. */
  readonly text: string;
  readonly headline: string;
  readonly openDetails: number;
  readonly summaries: readonly string[];
  /** Each drawn table outside closed <details>: header cells, then rows of cells (a name first). */
  readonly tables: readonly (readonly (readonly string[])[])[];
  readonly inlineCode: readonly string[];
}

// Page-side code as text: this project's TypeScript compiles Node code, without the DOM library.
const READ_COMMENT = `(() => {
  const box = document.querySelector(".comment");
  const shown = (el) => !el.closest("details:not([open]) > :not(summary)");
  // A row's first cell is the benchmark's name in <code>, then its suite's kind in words.
  const cells = (row) => [...row.children].map((c, i) =>
    (i === 0 ? c.querySelector("code")?.innerText : undefined) ?? c.innerText.trim());
  return {
    text: box.innerText,
    headline: box.querySelector("h2")?.innerText ?? "",
    openDetails: box.querySelectorAll("details[open]").length,
    summaries: [...box.querySelectorAll("summary")].map((s) => s.innerText.trim()),
    tables: [...box.querySelectorAll("table")].filter(shown)
      .map((t) => [...t.querySelectorAll("tr")].map(cells)),
    inlineCode: [...box.querySelectorAll("code")].filter(shown).map((c) => c.innerText),
  };
})()`;

let browser: Browser;
let shotsDir: string;
const ownShotsDir = process.env["BENCHGATE_SCREENSHOTS_DIR"] === undefined;

beforeAll(async () => {
  browser = await launchChromium();
  shotsDir =
    process.env["BENCHGATE_SCREENSHOTS_DIR"] ??
    mkdtempSync(path.join(tmpdir(), "benchgate-comment-shots-"));
  mkdirSync(shotsDir, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser.close();
  if (ownShotsDir) rmSync(shotsDir, { recursive: true, force: true });
});

/** Renders the comment on a PR page, reads it back and writes `<shot>.png`. */
async function show(markdown: string, shot: string): Promise<Seen> {
  const context = await browser.newContext({
    viewport: { width: COMMENT_WIDTH + 32, height: 900 },
    deviceScaleFactor: 1,
  });
  try {
    const page = await context.newPage();
    await page.setContent(githubCommentPage(markdown), { waitUntil: "load" });
    await page.locator(".comment").screenshot({ path: path.join(shotsDir, `${shot}.png`) });
    return await page.evaluate<Seen>(READ_COMMENT);
  } finally {
    await context.close();
  }
}

const failing = (r: BenchReport): string[] =>
  r.benchmarks.filter((e) => e.verdict === "regressed" && e.secondary !== true).map((e) => e.id);

// What a reader must never see: Markdown or HTML that did not render, or an entity escaped twice.
const LEAKS = /\*\*|<\/?(?:code|details|summary|sub|br)\b|&(?:#\d+|amp|lt|gt|quot);|^\s*\|/mu;

describe.each(COMMENT_CASES)(
  "$shot, rendered as GitHub renders it",
  ({ shot, build, critcmpTable }) => {
    it("shows the verdict, closed folds and no syntax leaking into the text", async () => {
      const report = await build();
      const seen = await show(prComment(report, critcmpTable), shot);
      expect(seen.headline).toMatch(new RegExp(`^\\S+ benchgate: ${report.verdict}\\b`, "u"));
      expect(seen.openDetails).toBe(0);
      expect(seen.summaries).toContain("Diagnostics");
      // The diagnostics' first line is folded away, not drawn.
      expect(seen.text).not.toContain("How this run was judged");
      expect(LEAKS.exec(seen.text)?.[0]).toBeUndefined();
      // Lines a reader scrolls through before opening anything: table rows count one each.
      const lines = seen.text.split("\n").filter((l) => l.trim() !== "");
      expect(lines.length).toBeLessThanOrEqual(40);
      // A non-pass verdict offers the re-run, as inline code a maintainer can copy.
      if (report.verdict !== "pass") expect(seen.inlineCode).toContain(`/rebench ${HEAD_SHA}`);
    }, 60_000);

    it("names what fails in the headline and draws it as the first table's rows", async () => {
      const report = await build();
      const seen = await show(prComment(report, critcmpTable), shot);
      const regressed = failing(report);
      if (report.verdict !== "fail") {
        expect(regressed).toEqual([]);
        return;
      }
      expect(regressed.length).toBeGreaterThan(0);
      for (const id of regressed.slice(0, 3)) expect(seen.headline).toContain(id);
      const [header, ...rows] = seen.tables[0] ?? [];
      // "head (est.)": the column says head is base × (1 + change), not head's own median.
      expect(header?.slice(0, 4).map((h) => h.split(" ")[0])).toEqual([
        "benchmark",
        "base",
        "head",
        "change",
      ]);
      const red = rows.filter((r) => r.some((c) => c.includes("🔴"))).map((r) => r[0]);
      expect(new Set(red)).toEqual(new Set(regressed));
    }, 60_000);
  },
);
