// github-action-benchmark data for the import tests: the real data.js fixtures, an independent
// count of their values, and small synthetic files.
import { readFileSync } from "node:fs";
import type { BenchHistory } from "../../src/schemas/history.gen.ts";
import { GAB_SCRIPT_PREFIX } from "../../src/history/gab-data-js.ts";

const GAB_FIXTURES = new URL("../fixtures/gab-data-js/", import.meta.url);
export const gabFixture = (name: string): string =>
  readFileSync(new URL(name, GAB_FIXTURES), "utf8");
export const SHOGI = "shogi_core-cargo.data.js";
export const RERUNS = "structlog-sentry-logger-pytest-reruns.data.js";
export const TWO_SUITES = "opentelemetry-python-pytest-two-suites.data.js";

/**
 * Every `"value": <number|null>` in the text, found without the parser: the independent count
 * an import is checked against.
 */
export function valuesInText(text: string): (number | null)[] {
  return [...text.matchAll(/"value":\s*(null|-?[0-9][0-9.eE+-]*)/g)].map(([, v]) =>
    v === "null" ? null : Number(v),
  );
}

/** Per commit: [short SHA, recorded_at, medians] for each rerun and then the results. */
export function runsOf(history: BenchHistory): [string, string, number[]][] {
  return history.commits.flatMap((c) =>
    [...(c.reruns ?? []), c].map((m): [string, string, number[]] => [
      c.sha.slice(0, 7),
      m.recorded_at,
      m.results.map(([, v]) => v),
    ]),
  );
}

export function syntheticDataJs(runs: readonly object[], suite = "s"): string {
  return GAB_SCRIPT_PREFIX + JSON.stringify({ entries: { [suite]: runs } });
}

export function gabRun(
  sha: string,
  date: number,
  tool: string,
  benches: readonly object[],
): object {
  return {
    commit: {
      id: sha,
      message: "m",
      timestamp: "2024-01-01T00:00:00Z",
      author: { name: "a" },
      url: `https://github.com/o/r/commit/${sha}`,
    },
    date,
    tool,
    benches,
  };
}

export const A = "a".repeat(40);
export const B = "b".repeat(40);
export const C = "c".repeat(40);
