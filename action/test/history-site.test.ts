// `benchgate history site` and the page it writes, loaded in headless Chromium: drawn charts,
// filter, tooltip, change-point, environment and superseded-baseline markers, hostile strings,
// no network.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import type { Browser, Locator, Page } from "playwright-core";
import { InputError } from "../src/errors.ts";
import { historySiteCommand } from "../src/cli/commands/history-site.ts";
import { nodeMachine } from "../src/io/node-machine.ts";
import type { Machine } from "../src/ports/machine.ts";
import { SITE_FILES, renderSite } from "../src/site/site-files.ts";
import { loadSiteAssets } from "../src/site/site-assets.ts";
import type { BenchHistory, Result } from "../src/schemas/history.gen.ts";
import type { PageModel } from "../src/site/page-model.ts";
import { MEDIAN_PIXELS_ON_SCREEN, launchChromium, waitForAllCharts } from "./support/chromium.ts";
import { ROOT } from "./support/cli.ts";
import { syntheticHistory } from "./support/synthetic-history.ts";
import { buildNodeBundle } from "../../scripts/build.ts";
import { buildSiteBundle } from "../src/site/build-site-bundle.ts";

const HOSTILE = {
  img: `<img src=x onerror="window.__pwned='img'">`,
  script: `</script><script>window.__pwned='script'</script>`,
  separators: `line\u2028sep\u2029para <b>bold</b> & "q"`,
  suite: `<svg onload="window.__pwned='suite'">`,
  message: `</script><img src=x onerror="window.__pwned='message'"> fix\u2028more`,
  author: `<iframe src="javascript:window.__pwned='author'"></iframe>`,
  // Trojan Source: reads as "evil…exe.txt"; the page must show the controls, not obey them.
  bidi: `evil\u202Etxt.exe\u2066\u200B`,
};

/** A superseded baseline's reason: plain text as the command accepts it, markup included. */
const HOSTILE_REASON = `switched to <img src=x onerror="window.__pwned='break'"> & "counts"`;

/**
 * Page-side: the canvas columns (CSS pixels from the canvas' left edge) of the 6 px around the
 * break marker of the card named `id`: between the last commit of the old baseline and the first
 * of the new one, away from both points.
 */
const BREAK_WINDOW = `(id) => {
  const card = [...document.querySelectorAll(".card")].find((c) => c.querySelector(".name").textContent === id);
  const canvas = card.querySelector("canvas").getBoundingClientRect();
  const marker = card.querySelector(".marker.break").getBoundingClientRect();
  const x = marker.left - canvas.left;
  return { from: x - 3, to: x + 3 };
}`;

/**
 * Page-side: pixels of the median line (its blue, at least half covered: darker than the band's
 * tint) in those columns of the card's canvas.
 */
const LINE_PIXELS = `(id, window) => {
  const card = [...document.querySelectorAll(".card")].find((c) => c.querySelector(".name").textContent === id);
  const canvas = card.querySelector("canvas");
  const scale = canvas.width / canvas.getBoundingClientRect().width;
  const from = Math.round(window.from * scale);
  const width = Math.round((window.to - window.from) * scale);
  const { data } = canvas.getContext("2d").getImageData(from, 0, width, canvas.height);
  let line = 0;
  for (let i = 0; i < data.length; i += 4)
    if (data[i] < 150 && data[i + 2] > 180 && data[i + 2] - data[i] > 80) line++;
  return line;
}`;

/**
 * Before the page's scripts: records every string drawn on each canvas (uPlot draws its axes'
 * ticks and labels there, not in the DOM), for window.__canvasText(canvas).
 */
const RECORD_CANVAS_TEXT = `{
  const drawn = new WeakMap();
  const fillText = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    const list = drawn.get(this.canvas) ?? [];
    list.push(String(text));
    drawn.set(this.canvas, list);
    return fillText.call(this, text, ...rest);
  };
  window.__canvasText = (canvas) => drawn.get(canvas) ?? [];
}`;

/** Page-side: per card, its name and the strings drawn on its chart's canvas. */
const CANVAS_TEXT_BY_CARD = `Object.fromEntries([...document.querySelectorAll(".card")].map((card) => [
  card.querySelector(".name").textContent,
  window.__canvasText(card.querySelector("canvas")),
]))`;

/**
 * The units page's series: [unit, typical value in that unit]. Times are stored in ns; one
 * imported series keeps its tool's "us/iter"; "widgets" is a unit the page does not know.
 */
const UNIT_SERIES: readonly (readonly [string, number])[] = [
  ["ns", 15_630],
  ["ns", 22_500_000],
  ["B", 3.5 * 2 ** 20],
  ["req/s", 12_300],
  ["instructions", 15_630_000],
  ["us/iter", 850],
  ["widgets", 15_630_000],
];

/** Bidi controls and zero-width characters, which the page must never contain. */
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/u;

const STEP_SERIES = 2;
const STEP_AT = 40;
const ENV_AT = 55;

let dir: string;
let browser: Browser;
let history: BenchHistory;
const out = (): string => path.join(dir, "site");

function capture(): { deps: Machine; stdout: () => string } {
  let text = "";
  return {
    deps: { ...nodeMachine(), out: (t) => (text += t), err: (t) => (text += t) },
    stdout: () => text,
  };
}

/**
 * `base` with series i in UNIT_SERIES[i]'s unit, every value of it scaled so that its first
 * median is that series' typical value: the same shapes (noise, band, budget) at other levels.
 */
function withUnits(base: BenchHistory): BenchHistory {
  const factors = new Map<number, number>();
  for (const commit of base.commits) {
    for (const [i, median] of commit.results) {
      const target = UNIT_SERIES[i]?.[1];
      if (!factors.has(i) && target !== undefined && median !== null && median > 0)
        factors.set(i, target / median);
    }
  }
  const factor = (i: number): number => factors.get(i) ?? 1;
  const scaled = (i: number, v: number | null): number | null =>
    v === null ? null : v * factor(i);
  return {
    ...base,
    series: base.series.map((s, i) => {
      const unit = UNIT_SERIES[i]?.[0] ?? s.unit;
      // A rate gets better as it grows; the rest (times, sizes, counts) as they shrink.
      const direction = unit.endsWith("/s") ? "bigger_is_better" : "smaller_is_better";
      return { ...s, unit, direction };
    }),
    commits: base.commits.map((c) => ({
      ...c,
      results: c.results.map(([i, median, low, high, budget]): Result => [
        i,
        median * factor(i),
        scaled(i, low),
        scaled(i, high),
        scaled(i, budget),
      ]),
    })),
  };
}

/** Opens the page, records console errors, page errors and every request. */
async function open(
  url: string,
  initScript?: string,
): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  if (initScript !== undefined) await page.addInitScript({ content: initScript });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("dialog", (d) => errors.push(`dialog: ${d.message()}`));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(url);
  await waitForAllCharts(page);
  return { page, errors, requests };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-site-"));
  history = syntheticHistory({
    benchmarks: 12,
    commits: 80,
    seed: 5,
    environmentChangeAt: ENV_AT,
    steps: [[STEP_SERIES, STEP_AT, 1.5]],
  });
  writeFileSync(path.join(dir, "history.json"), JSON.stringify(history));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("benchgate history site (command)", () => {
  it("writes the page's four files and reports what it wrote", async () => {
    const { deps, stdout } = capture();
    const code = await historySiteCommand(
      ["--history", path.join(dir, "history.json"), "--out", out(), "--title", "tiny & <bench>"],
      deps,
    );
    expect(code).toBe(0);
    expect(readdirSync(out()).sort()).toEqual(Object.values(SITE_FILES).sort());
    expect(stdout()).toMatch(/12 benchmarks, 80 commits, 1 change points/);
    const html = readFileSync(path.join(out(), SITE_FILES.html), "utf8");
    expect(html).toContain("<title>tiny &amp; &lt;bench&gt;</title>");
    expect(html).toContain(`http-equiv="Content-Security-Policy"`);
    expect(html).not.toMatch(/<script>|<style>| style=|https?:\/\//);
    // Nothing from a CDN or anywhere else: the page references only its own files.
    const script = readFileSync(path.join(out(), SITE_FILES.script), "utf8");
    expect(script).toContain("uPlot");
    expect(script).not.toMatch(/\bfetch\(|XMLHttpRequest|import\(/);
  });

  it("writes the same bytes for the same history", async () => {
    const again = path.join(dir, "again");
    await historySiteCommand(
      ["--history", path.join(dir, "history.json"), "--out", again, "--title", "tiny & <bench>"],
      capture().deps,
    );
    for (const name of Object.values(SITE_FILES)) {
      expect(readFileSync(path.join(again, name), "utf8"), name).toBe(
        readFileSync(path.join(out(), name), "utf8"),
      );
    }
  });

  it("prints help, and refuses missing options, stray arguments and invalid histories", async () => {
    const { deps, stdout } = capture();
    expect(await historySiteCommand(["--help"], deps)).toBe(0);
    expect(stdout()).toMatch(/^Usage: benchgate history site --history FILE --out DIR/);
    const run = (argv: string[]): Promise<number> => historySiteCommand(argv, capture().deps);
    await expect(run(["--history", "h.json"])).rejects.toThrow(/--history FILE and --out DIR/);
    await expect(run(["x", "--history", "a", "--out", "b"])).rejects.toThrow(InputError);
    await expect(run(["--history", "a", "--out", "b", "--title", ""])).rejects.toThrow(/--title/);
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ ...history, commits: [{ sha: "nope" }] }));
    const error = await run(["--history", bad, "--out", path.join(dir, "never")]).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).describe()).toContain("bad.json");
    expect(() => readdirSync(path.join(dir, "never"))).toThrow();
  });
});

describe("benchgate history site from a dist bundle", () => {
  it("carries the page's assets inside the bundle and needs no node_modules", async () => {
    // Built the way scripts/build.ts builds dist/, then run from a directory with no
    // node_modules above it: the embedded assets are used, esbuild is never reached.
    const bundleDir = mkdtempSync(path.join(tmpdir(), "benchgate-bundle-"));
    try {
      const entry = path.join(dir, "site-entry.ts");
      const command = path.join(ROOT, "action/src/cli/commands/history-site.ts");
      const machine = path.join(ROOT, "action/src/io/node-machine.ts");
      writeFileSync(
        entry,
        `import { historySiteCommand } from ${JSON.stringify(command)};\n` +
          `import { nodeMachine } from ${JSON.stringify(machine)};\n` +
          `process.exitCode = await historySiteCommand(process.argv.slice(2), nodeMachine());\n`,
      );
      const bundle = path.join(bundleDir, "benchgate.js");
      await buildNodeBundle(entry, bundle, await buildSiteBundle());
      const fromBundle = path.join(bundleDir, "site");
      const args = ["--history", path.join(dir, "history.json"), "--out", fromBundle];
      const run = spawnSync(process.execPath, [bundle, ...args, "--title", "tiny & <bench>"], {
        cwd: bundleDir,
        encoding: "utf8",
      });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect(readFileSync(bundle, "utf8")).not.toMatch(/BENCHGATE_SITE_ASSETS/);
      for (const name of Object.values(SITE_FILES)) {
        expect(readFileSync(path.join(fromBundle, name), "utf8"), name).toBe(
          readFileSync(path.join(out(), name), "utf8"),
        );
      }
    } finally {
      rmSync(bundleDir, { recursive: true, force: true });
    }
  });
});

describe("the history page in headless Chromium", () => {
  it("draws every chart from file:// without errors or requests beyond its own files", async () => {
    const { page, errors, requests } = await open(
      pathToFileURL(path.join(out(), "index.html")).href,
    );
    expect(errors).toEqual([]);
    const own = new Set(
      Object.values(SITE_FILES).map((f) => pathToFileURL(path.join(out(), f)).href),
    );
    expect(requests.filter((url) => !own.has(url))).toEqual([]);
    expect(await page.locator(".card").count()).toBe(12);
    expect(await page.locator(".card canvas").count()).toBe(12);
    // Charts on screen carry the median line's colour; a blank or axes-only canvas does not.
    const painted = await page.evaluate<number[]>(MEDIAN_PIXELS_ON_SCREEN);
    expect(painted.length).toBeGreaterThan(1);
    for (const pixels of painted) expect(pixels).toBeGreaterThan(50);
    // Groups by suite after the latest commit's, the unit and the direction on each card, the
    // imported series labelled.
    expect(await page.locator(".suite-group").first().getAttribute("class")).toContain(
      "moved-group",
    );
    const suites = page.locator(".suite-group:not(.moved-group) summary .suite");
    expect(await suites.allTextContents()).toEqual([
      "archive",
      "cli",
      "codec",
      "legacy-gab",
      "parser",
    ]);
    expect(await page.locator(".card .badge.imported").count()).toBe(1);
    expect(await page.locator(".badge.direction", { hasText: "higher is better" }).count()).toBe(1);
    mkdirSync(path.join(ROOT, ".benchgate/test-artifacts"), { recursive: true });
    await page.screenshot({
      path: path.join(ROOT, ".benchgate/test-artifacts/history-page.png"),
      fullPage: true,
    });
    await page.close();
  });

  it("filters by name (substring and glob) and by suite, as you type", async () => {
    const { page, errors } = await open(pathToFileURL(path.join(out(), "index.html")).href);
    const shown = (): Promise<number> => page.locator(".card:visible").count();
    await page.locator(".controls input").fill("bench_00");
    expect(await shown()).toBe(10);
    await page.locator(".controls input").fill("*bench_01?/4096");
    expect(await shown()).toBe(1);
    expect(await page.locator(".controls .shown").textContent()).toBe("1 of 12 benchmarks");
    await page.locator(".controls input").fill("");
    await page.locator(".controls select").selectOption("cli");
    expect(await shown()).toBe(2);
    expect(
      await page.locator(".suite-group:visible:not(.moved-group) summary .suite").allTextContents(),
    ).toEqual(["cli"]);
    for (const suite of await page.locator(".card:visible .badge.suite").allTextContents())
      expect(suite).toBe("cli");
    expect(new URL(page.url()).hash).toBe("#suite=cli");
    await page.locator(".controls select").selectOption("");
    expect(await shown()).toBe(12);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the commit on hover, pins it with a click, and links it over https", async () => {
    const { page } = await open(pathToFileURL(path.join(out(), "index.html")).href);
    const over = page.locator(".card .u-over").first();
    const box = await over.boundingBox();
    if (box === null) throw new Error("no plot area");
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    const tooltip = page.locator(".tooltip");
    await expect.poll(() => tooltip.isVisible()).toBe(true);
    const sha = (await tooltip.locator(".sha").textContent()) ?? "";
    const commit = history.commits.find((c) => c.sha.startsWith(sha));
    expect(sha).toHaveLength(7);
    expect(commit).toBeDefined();
    const text = (await tooltip.textContent()) ?? "";
    expect(text).toContain(commit?.message);
    expect(text).toContain(commit?.author);
    expect(text).toContain(commit?.date.slice(0, 10));
    expect(await tooltip.locator("a").getAttribute("href")).toBe(commit?.url);
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await expect.poll(() => tooltip.getAttribute("class")).toContain("pinned");
    await page.keyboard.press("Escape");
    await expect.poll(() => tooltip.isVisible()).toBe(false);
    await page.close();
  });

  it("draws each series in a unit of its own: µs and ms axes, the unit in the tooltip", async () => {
    const units = withUnits(syntheticHistory({ benchmarks: 7, commits: 40, seed: 17, steps: [] }));
    const site = path.join(dir, "units");
    mkdirSync(site);
    for (const [name, content] of renderSite(units, await loadSiteAssets(), { title: "Units" })
      .files)
      writeFileSync(path.join(site, name), content);
    const { page, errors } = await open(
      pathToFileURL(path.join(site, "index.html")).href,
      RECORD_CANVAS_TEXT,
    );
    // Tall enough for every card at once: the screenshot below needs no scrolling.
    await page.setViewportSize({ width: 1280, height: 1700 });
    await waitForAllCharts(page);
    const name = (i: number): string => units.series[i]?.id ?? "";
    const card = (i: number): Locator =>
      page.locator(".card", { has: page.locator(".name", { hasText: name(i) }) });

    // Each axis is labelled with the series' unit and its ticks are plain numbers in it.
    const drawn = await page.evaluate<Record<string, string[]>>(CANVAS_TEXT_BY_CARD);
    const expected = ["µs", "ms", "MiB", "k req/s", "M instructions", "µs", "widgets"];
    expected.forEach((label, i) => expect(drawn[name(i)], name(i)).toContain(label));
    const ticks = (i: number): string[] =>
      (drawn[name(i)] ?? []).filter((t) => /^[\d,.]+$/.test(t) && !/^\d{4}-/.test(t));
    for (const i of [0, 1, 2, 3, 4, 5]) {
      expect(ticks(i).length, name(i)).toBeGreaterThanOrEqual(2);
      // In the unit, not in raw ns, bytes or counts: no tick past 1,000 of it.
      for (const tick of ticks(i))
        expect(Number(tick.replaceAll(",", "")), name(i)).toBeLessThanOrEqual(1000);
    }
    // x: commit numbers (the date only under the first tick of a day), never a bare date twice.
    for (const i of [0, 1]) {
      const xTicks = (drawn[name(i)] ?? []).filter((t) => /^#\d+$/.test(t));
      expect(xTicks[0], name(i)).toBe("#1");
      expect(new Set(xTicks).size, name(i)).toBe(xTicks.length);
    }
    // y: the range drawn, written out in the chart's unit.
    expect(await card(0).locator(".yspan").textContent()).toMatch(
      /^y: [\d.]+–[\d.]+ µs \((±[\d.]+ %|from zero)\)$/u,
    );
    const known = [0, 1, 2, 3, 4, 5].flatMap((i) => drawn[name(i)] ?? []).join(" ");
    expect(known).not.toMatch(/\bns\b|\d[KMB]\b/);
    // The unknown unit keeps its raw numbers, in the short ticks the page always had.
    expect(drawn[name(6)]).toEqual(expect.arrayContaining(["16M", "18M"]));

    // The card: the unit badge (the recorded unit on hover) and the latest value with its unit.
    expect(await card(0).locator(".badge.unit").textContent()).toBe("µs");
    expect(await card(0).locator(".badge.unit").getAttribute("title")).toBe("recorded in ns");
    expect(await card(0).locator(".badge.latest").textContent()).toMatch(/^latest 1\d\.\d µs$/);
    expect(await card(1).locator(".badge.latest").textContent()).toMatch(/^latest 2\d\.\d ms$/);
    expect(await card(2).locator(".badge.latest").textContent()).toMatch(/^latest 3\.\d\d MiB$/);
    expect(await card(3).locator(".badge.latest").textContent()).toMatch(
      /^latest 1\d\.\dk req\/s$/,
    );
    expect(await card(4).locator(".badge.latest").textContent()).toMatch(
      /^latest 1\d\.\dM instructions$/,
    );
    expect(await card(5).locator(".badge.latest").textContent()).toMatch(/^latest \d{3} µs$/);
    expect(await card(6).locator(".badge.latest").textContent()).toMatch(
      /^latest 1\d,\d{3},\d{3} widgets$/,
    );
    // Series 1 has a budget (1.6 × its level): named in the same unit.
    expect(await card(1).locator(".badge.budget").textContent()).toMatch(/^budget 3\d\.\d ms$/);

    // Hovering a point: the median with its unit, the interval in the same unit, the budget.
    const tooltip = page.locator(".tooltip");
    const hover = async (i: number): Promise<void> => {
      const box = await card(i).locator(".u-over").boundingBox();
      if (box === null) throw new Error(`no plot area for ${name(i)}`);
      await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
      await expect.poll(() => tooltip.isVisible()).toBe(true);
    };
    await hover(0);
    await expect
      .poll(() => tooltip.locator(".tip-value").textContent())
      .toMatch(/^median 1\d\.\d µs {2}\[1\d\.\d, 1\d\.\d\]$/);
    await hover(1);
    await expect
      .poll(() => tooltip.locator(".tip-value").textContent())
      .toMatch(/^median 2\d\.\d ms {2}\[\d\d\.\d, \d\d\.\d\]$/);
    expect(await tooltip.locator(".tip-budget").textContent()).toMatch(/^budget 3\d\.\d ms$/);

    // The picture, with the tooltip open on the ms chart. docs/history.md shows one taken this
    // way; BENCHGATE_UPDATE_DOCS_IMAGES=1 replaces it (a test run leaves tracked files alone).
    const shot = path.join(dir, "history-units.png");
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    if (process.env["BENCHGATE_UPDATE_DOCS_IMAGES"] === "1") {
      mkdirSync(path.join(ROOT, "docs/images"), { recursive: true });
      copyFileSync(shot, path.join(ROOT, "docs/images/history-units.png"));
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it("marks the detected step with its size and the environment change on every chart", async () => {
    const { page } = await open(pathToFileURL(path.join(out(), "index.html")).href);
    const stepped = history.series[STEP_SERIES]?.id ?? "";
    const card = page.locator(".card", { has: page.locator(".name", { hasText: stepped }) });
    const marker = card.locator(".marker.change");
    expect(await marker.count()).toBe(1);
    expect(await marker.textContent()).toMatch(/^\+(4\d|5\d)\.\d %$/);
    const title = (await marker.getAttribute("title")) ?? "";
    const near = history.commits.slice(STEP_AT - 2, STEP_AT + 3).map((c) => c.sha.slice(0, 7));
    expect(near.some((sha) => title.includes(sha))).toBe(true);
    expect(await card.locator(".changes").textContent()).toMatch(/Change points: #\d+ \+/);
    expect(await page.locator(".marker.change").count()).toBe(1);
    // Every chart that spans the change shows it (one benchmark starts after it).
    expect(await page.locator(".marker.env").count()).toBeGreaterThanOrEqual(11);
    const envTitle = await page.locator(".marker.env").first().getAttribute("title");
    expect(envTitle).toContain(history.commits[ENV_AT]?.sha.slice(0, 7));
    expect(envTitle).toContain("kernel 6.12.9 → 6.18.2");
    expect(await page.locator(".env-changes summary").textContent()).toBe(
      "The environment changed once",
    );
    await page.close();
  });

  it("renders hostile names, messages and authors as display-safe text and runs none of them", async () => {
    const hostile = syntheticHistory({
      benchmarks: 6,
      commits: 30,
      seed: 9,
      ids: { 0: HOSTILE.img, 1: HOSTILE.script, 2: HOSTILE.separators, 4: HOSTILE.bidi },
      commitFields: Object.fromEntries(
        Array.from({ length: 30 }, (_, c) => [
          c,
          {
            message: `${HOSTILE.bidi} ${HOSTILE.message}`,
            author: `${HOSTILE.author}\u202E`,
            url: "javascript:window.__pwned='url'",
          },
        ]),
      ),
    });
    hostile.series[3] = {
      ...(hostile.series[3] as BenchHistory["series"][number]),
      suite: HOSTILE.suite,
    };
    const files = renderSite(hostile, await loadSiteAssets(), {
      title: `</title><script>window.__pwned='title'</script>`,
    }).files;
    const site = path.join(dir, "hostile");
    mkdirSync(site);
    for (const [name, content] of files) writeFileSync(path.join(site, name), content);
    const data = files.get(SITE_FILES.data) as string;
    expect(data).not.toMatch(/[<>&\u2028\u2029]/);

    const { page, errors } = await open(pathToFileURL(path.join(site, "index.html")).href);
    // Shown as text, made display-safe as in the PR comment: line and paragraph separators
    // become spaces, bidi controls a visible U+FFFD, zero-width characters nothing.
    expect(await page.locator(".card .name").allTextContents()).toEqual(
      expect.arrayContaining([
        HOSTILE.img,
        HOSTILE.script,
        `line sep para <b>bold</b> & "q"`,
        "evil\uFFFDtxt.exe\uFFFD",
      ]),
    );
    expect(await page.locator(".controls option").allTextContents()).toContain(HOSTILE.suite);
    expect(
      await page.locator(".suite-group summary .suite, .card .badge.suite").allTextContents(),
    ).toContain(HOSTILE.suite);
    expect(await page.locator("h1").textContent()).toBe(
      `</title><script>window.__pwned='title'</script>`,
    );
    const over = page.locator(".card .u-over").first();
    const box = await over.boundingBox();
    if (box === null) throw new Error("no plot area");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // The page shows a message's first line; U+2028 ends a line too.
    await expect
      .poll(() => page.locator(".tooltip .tip-message").textContent())
      .toBe(`evil\uFFFDtxt.exe\uFFFD ${HOSTILE.message.split("\u2028")[0]}`);
    expect(await page.locator(".tooltip .tip-meta").textContent()).toContain(
      `${HOSTILE.author}\uFFFD`,
    );
    // No bidi control or zero-width character anywhere in the rendered page or its title.
    expect(await page.evaluate("document.title + document.body.textContent")).not.toMatch(
      INVISIBLE,
    );
    expect(await page.locator(".tooltip a").count()).toBe(0);
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    expect(await page.locator("#app img, #app iframe, #app svg, #app b, #app script").count()).toBe(
      0,
    );
    expect(await page.locator("a").count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("breaks the line at a superseded baseline, marks it with its reason, and finds no step across it", async () => {
    // parser/bench_000/16 reads 3× from commit 20 on: a new method, not a regression.
    const base = syntheticHistory({ benchmarks: 4, commits: 30, seed: 21, steps: [[0, 20, 3]] });
    const id = base.series[0]?.id ?? "";
    const from = base.commits[20]?.sha ?? "";
    const marked: BenchHistory = {
      ...base,
      breaks: [
        { benchmark: id, from, reason: HOSTILE_REASON, recorded_at: "2026-03-01T00:00:00Z" },
      ],
    };
    const write = async (name: string, h: BenchHistory): Promise<string> => {
      const site = path.join(dir, name);
      mkdirSync(site);
      for (const [file, content] of renderSite(h, await loadSiteAssets()).files)
        writeFileSync(path.join(site, file), content);
      return pathToFileURL(path.join(site, "index.html")).href;
    };
    const plainUrl = await write("unmarked", base);
    const markedUrl = await write("marked", marked);

    const { page, errors } = await open(markedUrl);
    const card = page.locator(".card", { has: page.locator(".name", { hasText: id }) });
    // The data the page drew from: the break on that series, no change point across it.
    const data = await page.evaluate<PageModel>("window.BENCHGATE_DATA");
    const series = data.series.find((s) => s.id === id);
    expect(series?.breaks).toEqual([{ index: 20, reason: HOSTILE_REASON }]);
    expect(series?.changes).toEqual([]);
    expect(data.breaks).toEqual([{ benchmark: id, index: 20, reason: HOSTILE_REASON, series: 1 }]);
    // A vertical marker with the reason as its title, the note under the chart, the header list.
    const marker = card.locator(".marker.break");
    expect(await marker.count()).toBe(1);
    expect(await marker.isVisible()).toBe(true);
    expect(await marker.textContent()).toBe("new baseline");
    expect(await marker.getAttribute("title")).toBe(
      `new baseline from ${from.slice(0, 7)}, not compared with the earlier points: ${HOSTILE_REASON}`,
    );
    expect(await card.locator(".marker.change").count()).toBe(0);
    expect(await card.locator(".breaks").textContent()).toBe(
      `New baseline: from #21 (${from.slice(0, 7)}): ${HOSTILE_REASON}`,
    );
    expect(await page.locator(".marker.break").count()).toBe(1);
    expect(await page.locator(".break-marks summary").textContent()).toBe(
      "One baseline was superseded",
    );
    expect(await page.locator(".break-marks li").textContent()).toBe(
      `commit 21 (${from.slice(0, 7)}): ${id} (1 benchmark): ${HOSTILE_REASON}`,
    );
    // The gap: no median-line pixel in the columns around the marker, where the unmarked page
    // draws the jump from the old level to the new one.
    const window = await page.evaluate<{ from: number; to: number }>(
      `(${BREAK_WINDOW})(${JSON.stringify(id)})`,
    );
    expect(
      await page.evaluate(`(${LINE_PIXELS})(${JSON.stringify(id)}, ${JSON.stringify(window)})`),
    ).toBe(0);
    mkdirSync(path.join(ROOT, ".benchgate/test-artifacts"), { recursive: true });
    await card.screenshot({
      path: path.join(ROOT, ".benchgate/test-artifacts/history-page-break.png"),
    });

    // Hovering the first commit of the new baseline gives its reason in the tooltip.
    const box = await marker.boundingBox();
    if (box === null) throw new Error("no marker box");
    await page.mouse.move(box.x + 8, box.y + box.height / 2);
    await expect
      .poll(() => page.locator(".tooltip .tip-break").textContent())
      .toBe(`new baseline: ${HOSTILE_REASON}`);
    expect(await page.locator(".tooltip .sha").textContent()).toBe(from.slice(0, 7));
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    expect(await page.locator("#app img").count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();

    const plain = await open(plainUrl);
    const plainCard = plain.page.locator(".card", {
      has: plain.page.locator(".name", { hasText: id }),
    });
    expect(await plainCard.locator(".marker.change").count()).toBe(1);
    expect(await plain.page.locator(".marker.break, .break-marks, .breaks").count()).toBe(0);
    expect(
      await plain.page.evaluate(
        `(${LINE_PIXELS})(${JSON.stringify(id)}, ${JSON.stringify(window)})`,
      ),
    ).toBeGreaterThan(0);
    await plain.page.close();
  });

  it("draws an empty history (no commits yet) without errors", async () => {
    const empty: BenchHistory = {
      schema_version: 1,
      series: history.series.slice(0, 2),
      commits: [],
    };
    const site = path.join(dir, "empty");
    mkdirSync(site);
    for (const [name, content] of renderSite(empty, await loadSiteAssets()).files) {
      writeFileSync(path.join(site, name), content);
    }
    const { page, errors } = await open(pathToFileURL(path.join(site, "index.html")).href);
    expect(errors).toEqual([]);
    expect(await page.locator(".card .empty").count()).toBe(2);
    expect(await page.locator("h1").textContent()).toBe("Benchmark history");
    await page.close();
  });

  it("works when served over http, with nothing requested beyond its files", async () => {
    const requested: string[] = [];
    const server: Server = createServer((req, res) => {
      const name = (req.url ?? "/").split("?")[0]?.replace(/^\//, "") || SITE_FILES.html;
      requested.push(name);
      if (!(Object.values(SITE_FILES) as string[]).includes(name)) {
        res.writeHead(404).end();
        return;
      }
      const type = name.endsWith(".html")
        ? "text/html"
        : name.endsWith(".css")
          ? "text/css"
          : "text/javascript";
      res
        .writeHead(200, { "content-type": `${type}; charset=utf-8` })
        .end(readFileSync(path.join(out(), name)));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const { page, errors, requests } = await open(`http://127.0.0.1:${port}/`);
      expect(errors).toEqual([]);
      expect(requests.every((u) => u.startsWith(`http://127.0.0.1:${port}/`))).toBe(true);
      expect(requested.sort()).toEqual(
        [SITE_FILES.data, SITE_FILES.html, SITE_FILES.script, SITE_FILES.style].sort(),
      );
      expect(await page.locator(".card canvas").count()).toBe(12);
      await page.close();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
