// Issue 27's acceptance: the history page of `npm run demo` (its two commits as recorded on
// gh-pages: the base, then the head where `normalize` does three passes) opens at 1400×900 on
// the head commit's failed verdict with the `normalize` regression as its first chart, marked
// at that commit; secondary counts are folded; the first screen is kept as a picture.
// Checked through the DOM, never through timings.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import type { BenchHistory } from "../src/schemas/history.gen.ts";
import { launchChromium } from "./support/chromium.ts";
import {
  FIRST_SCREEN,
  openFirstScreen,
  readDemoHistory,
  writeSite,
} from "./support/history-screenshot.ts";

let dir: string;
let browser: Browser;
let history: BenchHistory;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-first-screen-"));
  history = readDemoHistory();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the demo's history page, first screen", () => {
  it("opens on the failed head commit with the normalize regression as the first chart", async () => {
    // The fixture is what the demo recorded: base, then head, and the head failed (the base's
    // record is the same report with its sides swapped, so it carries the same verdict).
    expect(history.commits.length).toBe(2);
    expect(history.commits[1]?.verdict).toBe("fail");
    const head = history.commits[1]?.sha ?? "";
    const page = await openFirstScreen(browser, await writeSite(history, dir, "benchgate demo"));
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    const latest = page.locator(".latest-commit");
    expect(await latest.locator(".sha").textContent()).toBe(head.slice(0, 7));
    expect(await latest.locator(".verdict").textContent()).toBe("gate: failed");
    expect(await latest.locator(".moved-item").first().textContent()).toMatch(
      /normalize.* \+\d+ %$/,
    );

    // The first chart on the page: normalize, regressed at the head commit, on screen whole.
    const card = page.locator(".card").first();
    expect(await card.locator(".name").textContent()).toMatch(/normalize/);
    const marker = card.locator(":scope > .chart .marker.latest.worse");
    expect(await marker.count()).toBe(1);
    const label = (await marker.textContent()) ?? "";
    expect(label).toMatch(/^\+\d+ % here$/);
    expect(Number(/\d+/.exec(label)?.[0])).toBeGreaterThanOrEqual(100);
    expect(await marker.getAttribute("title")).toContain(head.slice(0, 7));
    expect(await card.locator(".badge.step.worse").first().textContent()).toMatch(
      new RegExp(`^\\+\\d+ % at ${head.slice(0, 7)}$`),
    );
    const box = await card.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.y ?? Infinity) + (box?.height ?? 0)).toBeLessThanOrEqual(FIRST_SCREEN.height);
    // Its y range is written out, so a step reads at its size.
    expect(await card.locator(".yspan").first().textContent()).toMatch(
      /^y: \S+–\S+ .+ \((±[\d.]+ %|from zero)\)$/u,
    );

    // Secondary counts are folded under their benchmark, closed, and not drawn until opened.
    const folds = page.locator(".card details.secondary");
    expect(await folds.count()).toBeGreaterThan(0);
    expect(await page.locator(".card details.secondary[open]").count()).toBe(0);
    const cards = await page.locator(".card").count();
    expect(cards).toBeLessThan(history.series.length);
    expect(await page.locator(".card > .chart canvas").count()).toBe(
      await page.locator(".card > .chart").count(),
    );
    expect(await page.locator(".sub-card canvas").count()).toBe(0);

    const shot = path.join(dir, "history-first-screen.png");
    await page.screenshot({ path: shot });
    expect(statSync(shot).size).toBeGreaterThan(20_000);

    const fold = folds.first();
    await fold.locator("summary").click();
    await expect
      .poll(() => fold.locator(".sub-card canvas").count())
      .toBe(await fold.locator(".sub-card .chart").count());
    // Counts read as counts: no "2.00 hits".
    expect(await page.locator(".badge.latest").allTextContents()).not.toContainEqual(
      expect.stringMatching(/^latest \d\.\d\d (hits|blocks|errors|accesses)$/),
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});
