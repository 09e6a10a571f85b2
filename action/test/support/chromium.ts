// Headless Chromium for the history page's tests and benchmark: the Debian package that
// scripts/setup.sh installs, driven through playwright-core (which downloads no browser).
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM = process.env["BENCHGATE_CHROMIUM"] ?? "/usr/bin/chromium";

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run scripts/setup.sh (apt-get install chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Resolves when the page's scheduler has drawn every chart (data-drawn="all" on <html>). */
export async function waitForAllCharts(page: Page, timeout = 30_000): Promise<void> {
  await page.locator('html[data-drawn="all"]').waitFor({ state: "attached", timeout });
}

/**
 * Per chart on screen, how many canvas pixels have the median line's colour (#2563eb): zero for
 * a blank canvas or one with axes only. Page-side code as text: this project's TypeScript
 * compiles Node code, without the DOM library.
 */
export const MEDIAN_PIXELS_ON_SCREEN = `[...document.querySelectorAll(".card canvas")]
  .filter((canvas) => canvas.getBoundingClientRect().top < window.innerHeight)
  .map((canvas) => {
    const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    let line = 0;
    for (let i = 0; i < data.length; i += 4)
      if (data[i] === 37 && data[i + 1] === 99 && data[i + 2] === 235) line++;
    return line;
  })`;
