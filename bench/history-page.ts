// `node bench/history-page.ts [--benchmarks 200] [--commits 1000] [--runs 7]`: the history page
// at the scale. A synthetic history (several suites, steps, this VM's bimodal noise on
// some series, budgets, an imported suite, a kernel upgrade part-way) is turned into the site as
// `benchgate history site` does, then loaded from file:// in headless Chromium, a fresh browser
// context per run. Reported: change-point detection and site build time, "first screen drawn"
// and "all charts drawn" (the page's own performance marks, from navigation start), and the
// page weight (bytes per file, raw and gzip as gh-pages serves it).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { detectChangePoints } from "../action/src/history/change-points.ts";
import { nodeFileReader } from "../action/src/io/node-files.ts";
import { readHistoryFile } from "../action/src/ingest/read-document.ts";
import { loadSiteAssets } from "../action/src/site/site-assets.ts";
import { renderSite } from "../action/src/site/site-files.ts";
import { launchChromium, waitForAllCharts } from "../action/test/support/chromium.ts";
import { syntheticHistory } from "../action/test/support/synthetic-history.ts";
import { median, option, writeResult } from "./support.ts";

const benchmarks = Number(option("benchmarks", "200"));
const commits = Number(option("commits", "1000"));
const runs = Number(option("runs", "7"));

function summary(values: readonly number[]): { median: number; min: number; max: number } {
  const round = (v: number): number => Math.round(v * 10) / 10;
  return {
    median: round(median(values)),
    min: round(Math.min(...values)),
    max: round(Math.max(...values)),
  };
}

const dir = mkdtempSync(path.join(tmpdir(), "benchgate-history-page-"));
try {
  const history = syntheticHistory({
    benchmarks,
    commits,
    seed: 1,
    environmentChangeAt: Math.floor(commits * 0.6),
  });
  const historyFile = path.join(dir, "history.json");
  writeFileSync(historyFile, JSON.stringify(history));

  // Change points alone, on every series' medians (what the site build spends on them).
  const columns = history.series.map(() => new Array<number | null>(commits).fill(null));
  history.commits.forEach((c, i) => {
    for (const [s, value] of c.results) (columns[s] as (number | null)[])[i] = value;
  });
  const detection: number[] = [];
  let found = 0;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    found = columns.reduce((sum, values) => sum + detectChangePoints(values).length, 0);
    detection.push(performance.now() - t);
  }

  // The site build as the command does it: read and validate, model + change points, write.
  const assets = await loadSiteAssets();
  const site = path.join(dir, "site");
  const build: number[] = [];
  let files = new Map<string, string>();
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    const parsed = await readHistoryFile(nodeFileReader, historyFile);
    files = new Map(renderSite(parsed, assets, { title: "Benchmark history" }).files);
    rmSync(site, { recursive: true, force: true });
    mkdirSync(site);
    for (const [name, text] of files) writeFileSync(path.join(site, name), text);
    build.push(performance.now() - t);
  }

  const browser = await launchChromium();
  const firstScreen: number[] = [];
  const allDrawn: number[] = [];
  const dataReady: number[] = [];
  const filtering: number[] = [];
  try {
    for (let r = 0; r < runs; r++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(pathToFileURL(path.join(site, "index.html")).href);
      await waitForAllCharts(page, 60_000);
      // Page-side code as text: this project's TypeScript has no DOM library.
      const marks = await page.evaluate<Record<string, number>>(`(() => {
        const at = (name) => performance.getEntriesByName(name)[0].startTime;
        const nav = performance.getEntriesByType("navigation")[0];
        return { first: at("benchgate:first-screen"), all: at("benchgate:all-drawn"),
                 dom: nav.domContentLoadedEventEnd };
      })()`);
      // One keystroke in the name filter: hide the non-matching cards and lay the page out again.
      filtering.push(
        await page.evaluate<number>(`(() => {
          const input = document.querySelector(".controls input");
          const t = performance.now();
          input.value = "bench_1";
          input.dispatchEvent(new Event("input"));
          void document.body.offsetHeight;
          return performance.now() - t;
        })()`),
      );
      firstScreen.push(marks["first"] as number);
      allDrawn.push(marks["all"] as number);
      dataReady.push(marks["dom"] as number);
      await context.close();
    }
  } finally {
    await browser.close();
  }

  const weight = Object.fromEntries(
    [...files].map(([name, text]) => [
      name,
      { bytes: Buffer.byteLength(text), gzip: gzipSync(text, { level: 9 }).length },
    ]),
  );
  writeResult("history-page", {
    scale: { benchmarks, commits, runs },
    change_points: { found, ms: summary(detection) },
    site_build_ms: summary(build),
    page_ms: {
      scripts_run: summary(dataReady),
      first_screen_drawn: summary(firstScreen),
      all_charts_drawn: summary(allDrawn),
      filter_keystroke: summary(filtering),
    },
    weight,
    total: {
      bytes: Object.values(weight).reduce((s, w) => s + w.bytes, 0),
      gzip: Object.values(weight).reduce((s, w) => s + w.gzip, 0),
    },
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
