// Which way is better for a series imported from github-action-benchmark. gab decides it per
// tool (src/write/biggerIsBetter.ts), which puts a fact about the metric on the tool: its JMH
// throughput series are judged backwards (its issue #365), and users set `customBiggerIsBetter`
// for timings by mistake (real data.js files hold "ms" values under it). benchgate decides by
// the unit (docs/formats.md: direction is a fact about the metric): when the unit is unmistakably a time or a rate, the unit decides;
// otherwise (sizes, counts, "x", "%", made-up units) gab's table, i.e. what the user chose.
import { normalizeUnit, type Direction } from "../ingest/units.ts";

/** gab's tools and whether it treats bigger values as better (its biggerIsBetter switch). */
const GAB_TOOLS: ReadonlyMap<string, boolean> = new Map([
  ["cargo", false],
  ["go", false],
  ["benchmarkjs", true],
  ["benchmarkluau", false],
  ["pytest", true],
  ["googlecpp", false],
  ["catch2", false],
  ["julia", false],
  ["jmh", false],
  ["benchmarkdotnet", false],
  ["customBiggerIsBetter", true],
  ["customSmallerIsBetter", false],
]);

/** The tool written for benchgate's own series, which gab's page and alerts read by direction. */
export function customToolFor(direction: Direction): string {
  return direction === "bigger_is_better" ? "customBiggerIsBetter" : "customSmallerIsBetter";
}

export interface GabDirection {
  readonly direction: Direction;
  /** Why the direction is not simply gab's own choice, for the import report. */
  readonly note?: "unit-overrides-tool" | "unknown-tool";
}

/** The direction of a series with this gab tool and unit (see the file comment). */
export function gabDirection(tool: string, unit: string): GabDirection {
  const byTool = GAB_TOOLS.get(tool);
  const normalized = normalizeUnit(unit.trim());
  const byUnit =
    normalized.kind === "time" || normalized.kind === "rate" ? normalized.direction : undefined;
  if (byTool === undefined)
    return { direction: byUnit ?? "smaller_is_better", note: "unknown-tool" };
  const toolDirection: Direction = byTool ? "bigger_is_better" : "smaller_is_better";
  if (byUnit !== undefined && byUnit !== toolDirection)
    return { direction: byUnit, note: "unit-overrides-tool" };
  return { direction: toolDirection };
}
