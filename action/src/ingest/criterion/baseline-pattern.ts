// Which Criterion baselines a walk reads: one name (`--baseline base-3`) or a glob over the
// baseline directories' names (`--baselines 'base-*'`), and the side and round a baseline's name
// gives its summary. Baseline names come from the command line and from directory listings of a
// tree written by untrusted code, so both are checked before they name anything; a summary's file
// is named after its baseline only once the name has passed as a side label (see sideAndRound).
import { InputError } from "../../errors.ts";
import { globMatch } from "../../glob-match.ts";

/** Directories inside a benchmark directory that are never baselines. */
export const NOT_BASELINES: ReadonlySet<string> = new Set(["report", "change"]);

/** Longest glob: a baseline directory's name is at most 255 bytes. */
const MAX_GLOB = 255;

/** The baselines a walk reads. */
export interface BaselinePattern {
  /** As given, for messages: `"base-*"`, `"head-3"`. */
  readonly text: string;
  /** The one name this pattern matches, when it has no wildcard. */
  readonly exact: string | undefined;
  matches(name: string): boolean;
}

function unsafeName(name: string): boolean {
  return (
    name === "" ||
    name.length > 255 ||
    name === "." ||
    name === ".." ||
    /[/\\\0]/.test(name) ||
    NOT_BASELINES.has(name)
  );
}

/** `--baseline NAME`: exactly one directory name. */
export function exactBaseline(name: string): BaselinePattern {
  if (unsafeName(name))
    throw new InputError(`invalid Criterion baseline name ${JSON.stringify(name)}`);
  return { text: name, exact: name, matches: (candidate) => candidate === name };
}

/**
 * `--baselines GLOB[,GLOB…]`: every baseline directory whose name matches one of the globs (`*`
 * and `?` only; a comma separates alternatives, as no baseline it could ingest has one in its
 * name: a side label has none).
 */
export function baselineGlob(globs: string): BaselinePattern {
  const alternatives = globs.split(",");
  if (alternatives.length === 1) return oneGlob(globs);
  if (globs.length > MAX_GLOB)
    throw new InputError(
      `invalid --baselines pattern ${JSON.stringify(globs.slice(0, 64))} (at most ${MAX_GLOB} characters)`,
    );
  const each = alternatives.map(oneGlob);
  return {
    text: globs,
    exact: undefined,
    matches: (name) => each.some((p) => p.matches(name)),
  };
}

function oneGlob(glob: string): BaselinePattern {
  if (glob === "" || glob.length > MAX_GLOB || /[/\\\0]/.test(glob)) {
    throw new InputError(
      `invalid --baselines pattern ${JSON.stringify(glob.slice(0, 64))} (1–${MAX_GLOB} characters, no "/" or "\\"; * and ? are the wildcards)`,
    );
  }
  if (!/[*?]/.test(glob)) return exactBaseline(glob);
  return {
    text: glob,
    exact: undefined,
    matches: (name) => !NOT_BASELINES.has(name) && globMatch(glob, name),
  };
}

/** A summary's side label (schemas/summary.v1.schema.json, `side`). */
const SIDE = /^[A-Za-z0-9._-]{1,64}$/;
/** `benchgate run`'s baseline names: `<side>-<round>`, the round without leading zeros. */
const SIDE_ROUND = /^([A-Za-z0-9._-]{1,64})-([1-9][0-9]{0,4})$/;

/**
 * The side and round of a baseline read with --baselines: `base-3` is side base, round 3 (how
 * `benchgate run` names them); any other name that is a valid side label is that side, round 1.
 * A name that cannot be a side label is an error naming it: it would also not be a safe file
 * name for its summary.
 */
export function sideAndRound(
  baseline: string,
  source: string,
): { readonly side: string; readonly round: number } {
  const parts = SIDE_ROUND.exec(baseline);
  if (parts !== null && Number(parts[2]) <= 10_000)
    return { side: parts[1] as string, round: Number(parts[2]) };
  if (SIDE.test(baseline)) return { side: baseline, round: 1 };
  throw new InputError(
    `baseline ${JSON.stringify(baseline.slice(0, 64))} cannot name a side (1–64 letters, digits, ".", "_" or "-"); narrow --baselines to leave it out`,
    { source },
  );
}

/** A baseline with the side and round of its summary. */
interface NamedRun {
  readonly baseline: string;
  readonly side: string;
  readonly round: number;
}

/**
 * The side and round of every baseline read with --baselines, ordered by side, then round. Two
 * baselines that would be the same side and round (`x` and `x-1`) are an error: compare would
 * take them for one round measured twice.
 */
export function namedRuns(baselines: Iterable<string>, source: string): NamedRun[] {
  const runs = [...baselines].map((baseline) => ({ baseline, ...sideAndRound(baseline, source) }));
  runs.sort((a, b) => (a.side < b.side ? -1 : a.side > b.side ? 1 : a.round - b.round));
  for (const [i, run] of runs.entries()) {
    const before = runs[i - 1];
    if (before !== undefined && before.side === run.side && before.round === run.round) {
      throw new InputError(
        `baselines ${JSON.stringify(before.baseline)} and ${JSON.stringify(run.baseline)} would both be side ${run.side}, round ${run.round}; narrow --baselines to one of them`,
        { source },
      );
    }
  }
  return runs;
}
