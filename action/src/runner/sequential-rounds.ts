// The runner's half of sequential rounds (`rounds: auto`): after a look, the statistics core
// says which benchmarks are still open; this turns that set of ids into what the next round runs
// (Criterion narrowed by an exact-id filter, hyperfine by command, custom harnesses whole or not
// at all), and estimates that round's time for the time budget. Pure: ids and plans in, plans out.
import type { SuitePlan } from "../config/run-config.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import type { NextRound } from "../core/sequential.ts";

/** The core's look, bound to the run's settings and design: summaries so far → next round. */
export type RoundPlanner = (
  base: readonly SourcedSummary[],
  head: readonly SourcedSummary[],
) => NextRound;

/**
 * Characters with a meaning in Rust's `regex` syntax: the ones `regex::escape` escapes (`#`, `&`,
 * `-` and `~` only matter in verbose mode and character classes, and escaping them has been
 * accepted by every regex 1.x that Criterion 0.3.3–0.8 can resolve to).
 */
const META = new Set("\\.+*?()|[]{}^$#&-~");
/**
 * Written as `\x{…}`: whitespace (verbose mode would drop it), control and format characters,
 * and anything unassigned or private. Old regex releases refuse `\ ` and other superfluous
 * escapes, but the hex escape has always meant the one code point; it also keeps NUL and
 * newlines out of the argv string.
 */
const AS_HEX = /[\s\p{C}\p{Z}]/u;

/** One id as a Rust regex matching exactly that text; undefined when it is not valid Unicode. */
export function escapeRustRegex(text: string): string | undefined {
  // A lone surrogate cannot be UTF-8, so Criterion (Rust strings) can never have produced it.
  if (!text.isWellFormed()) return undefined;
  let out = "";
  for (const ch of text) {
    if (META.has(ch)) out += `\\${ch}`;
    else if (AS_HEX.test(ch)) out += `\\x{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
    else out += ch;
  }
  return out;
}

/**
 * Linux caps one argv string at 128 KiB (MAX_ARG_STRLEN); well below that, a filter for a few
 * hundred long ids still fits. Above it the suite runs with its own filter and the runner keeps
 * only the open ids.
 */
export const MAX_FILTER_BYTES = 64 * 1024;

/**
 * Criterion's filter (a Rust regex tested against each benchmark's full id) that selects exactly
 * `ids`, or undefined when none can be written (an id that is not valid Unicode, or a filter
 * too long for one argument).
 */
export function exactIdFilter(ids: readonly string[]): string | undefined {
  if (ids.length === 0) return undefined;
  const escaped: string[] = [];
  for (const id of [...new Set(ids)].sort()) {
    const e = escapeRustRegex(id);
    if (e === undefined) return undefined;
    escaped.push(e);
  }
  const filter = `^(?:${escaped.join("|")})$`;
  return Buffer.byteLength(filter, "utf8") > MAX_FILTER_BYTES ? undefined : filter;
}

export interface NarrowedRound {
  /** The suites to run, in config order, each narrowed to its open benchmarks where it can be. */
  readonly run: readonly SuitePlan[];
  /** Names of the suites with no open benchmark: not run this round. */
  readonly skipped: readonly string[];
  /** Criterion suites whose exact-id filter could not be written: they run with their own. */
  readonly unfiltered: readonly string[];
}

/**
 * What one round after a look runs. `suiteOf` maps every benchmark id measured so far to its
 * suite's name (ids are unique across suites). A custom harness cannot be narrowed: it runs
 * whole while any of its benchmarks is open.
 */
export function narrowSuites(
  suites: readonly SuitePlan[],
  active: ReadonlySet<string>,
  suiteOf: ReadonlyMap<string, string>,
): NarrowedRound {
  const open = new Map<string, string[]>();
  for (const id of active) {
    const suite = suiteOf.get(id);
    if (suite !== undefined) open.set(suite, [...(open.get(suite) ?? []), id]);
  }
  const run: SuitePlan[] = [];
  const skipped: string[] = [];
  const unfiltered: string[] = [];
  for (const suite of suites) {
    const ids = open.get(suite.name) ?? [];
    switch (suite.kind) {
      case "criterion": {
        if (ids.length === 0) {
          skipped.push(suite.name);
          break;
        }
        const filter = exactIdFilter(ids);
        if (filter === undefined) unfiltered.push(suite.name);
        run.push(filter === undefined ? suite : { ...suite, filter });
        break;
      }
      case "hyperfine": {
        // A hyperfine benchmark's id is its command's name (--command-name).
        const commands = suite.commands.filter((c) => active.has(c.name));
        if (commands.length === 0) skipped.push(suite.name);
        else run.push({ ...suite, commands });
        break;
      }
      case "custom":
        if (ids.length === 0) skipped.push(suite.name);
        else run.push(suite);
        break;
    }
  }
  return { run, skipped, unfiltered };
}

/** One suite's latest run on both sides of a round: how long, and how many benchmarks it gave. */
export interface SuiteTime {
  readonly ms: number;
  readonly benchmarks: number;
}

/**
 * The next round's expected time: each suite's latest time, scaled by the share of its
 * benchmarks that run again (a custom harness always runs whole), plus the rest of the latest
 * round (fingerprints, summaries).
 */
export function estimateRoundMs(
  next: readonly SuitePlan[],
  openIn: (suite: SuitePlan) => number,
  latest: ReadonlyMap<string, SuiteTime>,
  overheadMs: number,
): number {
  let ms = Math.max(0, overheadMs);
  for (const suite of next) {
    const time = latest.get(suite.name);
    if (time === undefined) continue;
    const share =
      suite.kind === "custom" || time.benchmarks === 0
        ? 1
        : Math.min(1, openIn(suite) / time.benchmarks);
    ms += time.ms * share;
  }
  return ms;
}

/**
 * Why the time budget stops the run before the next round, or undefined when that round fits.
 * `usedMs` is what the rounds took so far.
 */
export function budgetStop(budgetMs: number, usedMs: number, nextMs: number): string | undefined {
  if (usedMs + nextMs <= budgetMs) return undefined;
  const s = (ms: number): string => `${Math.max(0, Math.round(ms / 1000))} s`;
  return `time budget: the next round would take ~${s(nextMs)}, ${s(budgetMs - usedMs)} of the ${s(budgetMs)} budget left`;
}
