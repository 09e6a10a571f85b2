// The history page's first screen as a picture: the site built from a history.json by
// renderSite (what `benchgate history append` puts on gh-pages), opened from file:// in
// headless Chromium at 1400×900, and the viewport written as a PNG once its charts are drawn.
// The acceptance test (history-first-screen.test.ts) takes it from the demo's recorded history;
// run as a script, it writes docs' picture:
//
//   node action/test/support/history-screenshot.ts [--history FILE] [--out FILE.png]
//
// (defaults: the demo's history, action/test/support/demo-history.json, and
// docs/images/history-first-screen.png).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import type { BenchHistory } from "../../src/schemas/history.gen.ts";
import { renderSite } from "../../src/site/site-files.ts";
import { loadSiteAssets } from "../../src/site/site-assets.ts";
import { launchChromium, waitForAllCharts } from "./chromium.ts";
import { ROOT } from "./cli.ts";

export const FIRST_SCREEN = { width: 1400, height: 900 } as const;
export const DEMO_HISTORY = path.join(ROOT, "action/test/support/demo-history.json");
export const DOCS_PICTURE = path.join(ROOT, "docs/images/history-first-screen.png");

export function readDemoHistory(file = DEMO_HISTORY): BenchHistory {
  return JSON.parse(readFileSync(file, "utf8")) as BenchHistory;
}

/** Writes the history's site into `dir` and returns the page's file:// URL. */
export async function writeSite(
  history: BenchHistory,
  dir: string,
  title: string,
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of renderSite(history, await loadSiteAssets(), { title }).files)
    writeFileSync(path.join(dir, name), content);
  return pathToFileURL(path.join(dir, "index.html")).href;
}

/** Opens the page at the first screen's size and waits until every chart is drawn. */
export async function openFirstScreen(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { ...FIRST_SCREEN } });
  await page.goto(url);
  await waitForAllCharts(page);
  return page;
}

/** The first screen of `history`'s page as a PNG at `out`. */
export async function writeFirstScreen(
  history: BenchHistory,
  out: string,
  title = "benchgate demo",
): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "benchgate-first-screen-"));
  const browser = await launchChromium();
  try {
    const page = await openFirstScreen(browser, await writeSite(history, dir, title));
    mkdirSync(path.dirname(out), { recursive: true });
    await page.screenshot({ path: out });
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flag = (name: string, fallback: string): string => {
    const i = process.argv.indexOf(`--${name}`);
    return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
  };
  const out = path.resolve(flag("out", DOCS_PICTURE));
  await writeFirstScreen(readDemoHistory(path.resolve(flag("history", DEMO_HISTORY))), out);
  process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);
}
