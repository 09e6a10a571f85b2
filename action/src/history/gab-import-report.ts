// What an import of github-action-benchmark data kept and what it could not: the counts a caller
// prints and tests check (`values = points + nullValues + duplicateNames + alreadyPresent`), and
// one warning line per kind of loss or deviation, with a few sanitized examples. Nothing is
// dropped without a line here.
import { sanitizeText } from "../render/sanitize-text.ts";
import type { Direction } from "../ingest/units.ts";
import type { GabData } from "./gab-data.ts";
import type { GabDirection } from "./gab-tools.ts";

export interface GabImportCounts {
  /** Suites (gab's entry keys) in the file. */
  suites: number;
  /** Series the file's values belong to (new or already in the history). */
  series: number;
  /** Series added to the catalogue (the rest already existed). */
  newSeries: number;
  /** Distinct commits in the file. */
  commits: number;
  /** Commits added as new records. */
  newCommits: number;
  /** Commits that already had a record, which was kept (and completed). */
  mergedCommits: number;
  /** Values written into the history, in commits' results and reruns alike. */
  points: number;
  /** Earlier runs of a commit written as reruns (gab appends an entry per workflow run). */
  reruns: number;
  /** Bench values in the file: points + nullValues + duplicateNames + alreadyPresent. */
  values: number;
  /** Values gab stored as null (NaN when it wrote them): nothing to plot. */
  nullValues: number;
  /** Values of a bench listed again in the same entry: a run holds one value per series. */
  duplicateNames: number;
  /** Values of runs the existing history already holds (the file was imported before). */
  alreadyPresent: number;
  /** Runs whose tool differs from the one their series keeps (the first run's). */
  toolChanges: number;
  /** Commit messages of several lines, of which the history keeps the subject. */
  messageBodies: number;
  /** Runs joining entries of several suites written at different times (one time is kept). */
  collapsedDates: number;
  /** Commit URLs that are not https:// (or are too long) and were left out. */
  urlsDropped: number;
}

type Clippable = "message" | "author" | "range" | "extra";

/** At most `max` code points; longer text ends in "…". */
export function clip(text: string, max: number): { text: string; clipped: boolean } {
  if (text.length <= max) return { text, clipped: false };
  const points = Array.from(text);
  if (points.length <= max) return { text, clipped: false };
  return { text: `${points.slice(0, max - 1).join("")}…`, clipped: true };
}

const MAX_EXAMPLES = 3;
/** A crafted file can carry thousands of unknown fields; the line names the first ones. */
const MAX_FIELDS = 12;
const show = (text: string): string => JSON.stringify(sanitizeText(text, { maxLength: 80 }));

export class ImportTally {
  readonly counts: GabImportCounts = {
    suites: 0,
    series: 0,
    newSeries: 0,
    commits: 0,
    newCommits: 0,
    mergedCommits: 0,
    points: 0,
    reruns: 0,
    values: 0,
    nullValues: 0,
    duplicateNames: 0,
    alreadyPresent: 0,
    toolChanges: 0,
    messageBodies: 0,
    collapsedDates: 0,
    urlsDropped: 0,
  };
  readonly #data: GabData;
  readonly #nulls: string[] = [];
  readonly #duplicates: string[] = [];
  readonly #clipped = new Map<Clippable, number>();
  readonly #directions = new Map<NonNullable<GabDirection["note"]>, Map<string, number>>();

  constructor(data: GabData) {
    this.#data = data;
  }

  nullValue(suite: string, name: string, sha: string): void {
    this.counts.nullValues++;
    example(this.#nulls, suite, name, sha);
  }

  duplicateName(suite: string, name: string, sha: string): void {
    this.counts.duplicateNames++;
    example(this.#duplicates, suite, name, sha);
  }

  direction(
    note: NonNullable<GabDirection["note"]>,
    tool: string,
    unit: string,
    d: Direction,
  ): void {
    const byCase = this.#directions.get(note) ?? new Map<string, number>();
    const label = `tool ${show(tool)} with unit ${show(unit)} → ${d}`;
    byCase.set(label, (byCase.get(label) ?? 0) + 1);
    this.#directions.set(note, byCase);
  }

  clipped(kind: Clippable, result: { text: string; clipped: boolean }): string {
    if (result.clipped) this.#clipped.set(kind, (this.#clipped.get(kind) ?? 0) + 1);
    return result.text;
  }

  warnings(): string[] {
    const c = this.counts;
    const lines: string[] = [];
    if (c.nullValues > 0)
      lines.push(
        `${c.nullValues} value${plural(c.nullValues)} stored as null (NaN when gab wrote ${c.nullValues === 1 ? "it" : "them"}) skipped: ${this.#nulls.join(", ")}`,
      );
    if (c.duplicateNames > 0)
      lines.push(
        `${c.duplicateNames} value${plural(c.duplicateNames)} skipped: the bench appears again in the same entry, and a run keeps one value per bench and unit (the first): ${this.#duplicates.join(", ")}`,
      );
    if (c.alreadyPresent > 0)
      lines.push(
        `${c.alreadyPresent} value${plural(c.alreadyPresent)} already in the history: runs with the same suite and values were imported before, and are not added twice`,
      );
    for (const [note, cases] of this.#directions) {
      const total = [...cases.values()].reduce((a, b) => a + b, 0);
      const why =
        note === "unit-overrides-tool"
          ? "take their direction from the unit, not from gab's tool (docs/github-action-benchmark.md)"
          : "have a tool gab does not define; direction from the unit, else smaller_is_better";
      lines.push(`${total} series ${why}: ${[...cases.keys()].slice(0, MAX_EXAMPLES).join("; ")}`);
    }
    if (c.toolChanges > 0)
      lines.push(
        `${c.toolChanges} run${plural(c.toolChanges)} used another tool than the first run of the same series; the series keeps the first tool`,
      );
    if (c.messageBodies > 0)
      lines.push(
        `${c.messageBodies} commit message${plural(c.messageBodies)} kept to the first line (the history stores the subject)`,
      );
    if (c.collapsedDates > 0)
      lines.push(
        `${c.collapsedDates} run${plural(c.collapsedDates)} of several suites on one commit had entries at different times; each keeps its latest entry's time`,
      );
    if (c.urlsDropped > 0)
      lines.push(
        `${c.urlsDropped} commit URL${plural(c.urlsDropped)} left out: not https:// or longer than 2048 characters`,
      );
    for (const [kind, n] of this.#clipped)
      lines.push(`${n} ${kind} text${plural(n)} shortened to the history's length limit`);
    if (this.#data.textConversions > 0)
      lines.push(
        `${this.#data.textConversions} range/extra value${plural(this.#data.textConversions)} were not text and are kept as their JSON`,
      );
    if (this.#data.dropped.size > 0) {
      const fields = [...this.#data.dropped].map(([f, n]) => `${show(f)} ×${n}`);
      const more = fields.length > MAX_FIELDS ? `, and ${fields.length - MAX_FIELDS} more` : "";
      lines.push(
        `not kept (the history has no place for them): ${fields.slice(0, MAX_FIELDS).join(", ")}${more}`,
      );
    }
    return lines;
  }
}

function example(into: string[], suite: string, name: string, sha: string): void {
  if (into.length < MAX_EXAMPLES) into.push(`${show(suite)} / ${show(name)} at ${sha.slice(0, 8)}`);
}

function plural(n: number): string {
  return n === 1 ? "" : "s";
}
