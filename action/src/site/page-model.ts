// The history page's data as benchgate-data.js hands it to the browser app
// (window.BENCHGATE_DATA). Types only, no imports: the browser bundle and the Node side that
// builds it both compile this file, under different libraries.
//
// Columnar and aligned by commit index, because the page draws one chart per series over the
// same commits: 200 series × 1,000 commits is 200 arrays of numbers, not 200,000 objects.

// 2: superseded baselines (`breaks` on the model and on each series).
// 3: the latest commit and what moved there (`latest`), secondary series under their lead.
export const PAGE_MODEL_VERSION = 3;

export interface PageModel {
  readonly version: typeof PAGE_MODEL_VERSION;
  readonly title: string;
  /** The history's updated_at; the page never shows the time it was built. */
  readonly updatedAt: string | null;
  readonly commits: PageCommits;
  readonly environmentChanges: readonly EnvironmentChange[];
  /** Superseded baselines as marked, in the order they were marked. */
  readonly breaks: readonly PageMark[];
  readonly series: readonly PageSeries[];
  /** The newest commit, which the page opens on; null for a history without commits. */
  readonly latest: PageLatest | null;
}

export interface PageLatest {
  /** Its commit index (the last one). */
  readonly index: number;
  /**
   * The cards that moved there (latest-change.ts), by their lead series' index, in the order
   * the page shows them: regressions first.
   */
  readonly changed: readonly number[];
}

/** A series' step at the latest commit against its level just before (latest-change.ts). */
export interface PageLatestStep {
  /** Commit index of the latest commit. */
  readonly index: number;
  /** Commit index of the previous commit that measured the series. */
  readonly previous: number;
  /** The level before: the median of the last few commits' medians. */
  readonly before: number;
  readonly after: number;
  /** after / before − 1. */
  readonly step: number;
  /** The step goes against the series' direction. */
  readonly worse: boolean;
}

/** One mark of history.json's `breaks` (`benchgate history supersede`). */
export interface PageMark {
  /** The glob as written. */
  readonly benchmark: string;
  /** Commit index of the first commit measured the new way. */
  readonly index: number;
  readonly reason: string;
  /** How many series the glob matches. */
  readonly series: number;
}

/** One entry per commit, oldest first, in every array. */
export interface PageCommits {
  readonly sha: readonly string[];
  /** The message's first line. */
  readonly message: readonly string[];
  readonly author: readonly string[];
  /** ISO 8601 committer date. */
  readonly date: readonly string[];
  /** https URLs only; null otherwise. */
  readonly url: readonly (string | null)[];
  readonly verdict: readonly (string | null)[];
}

/** The environment fingerprint differs from the previous commit that had one. */
export interface EnvironmentChange {
  /** The first commit measured on the new environment. */
  readonly index: number;
  /** The recorded fields that differ; empty when only the fingerprints are known. */
  readonly fields: readonly { name: string; before: string; after: string }[];
}

export interface PageSeries {
  readonly suite: string;
  readonly id: string;
  readonly unit: string;
  readonly direction: "smaller_is_better" | "bigger_is_better";
  /** github-action-benchmark's tool for an imported series; null for benchgate's own runs. */
  readonly importedFrom: string | null;
  /** Commit index of the first element of every array below (a series can start late). */
  readonly start: number;
  readonly median: readonly (number | null)[];
  /** Confidence interval bounds; null when no commit of the series has one. */
  readonly low: readonly (number | null)[] | null;
  readonly high: readonly (number | null)[] | null;
  readonly budget: readonly (number | null)[] | null;
  /** github-action-benchmark's range/extra text per point, for imported series. */
  readonly notes: readonly (string | null)[] | null;
  /** Change points, found in each segment between breaks on its own. */
  readonly changes: readonly PageChange[];
  /**
   * Superseded baselines inside the drawn range (a point before and one from it on): the line
   * is broken there and nothing is compared across.
   */
  readonly breaks: readonly PageBreak[];
  /**
   * For a secondary series (a count beside its benchmark's primary metric, series-groups.ts),
   * the index of the series whose card it is folded into; null for a card's own series.
   */
  readonly lead: number | null;
  /** Its step at the latest commit, when it moved there (latest-change.ts). */
  readonly latestStep: PageLatestStep | null;
}

export interface PageBreak {
  /** Commit index of the first value of the new baseline. */
  readonly index: number;
  /** The marks' reasons, joined when two globs cut at one commit. */
  readonly reason: string;
}

interface PageChange {
  /** Commit index of the first value at the new level. */
  readonly index: number;
  readonly before: number;
  readonly after: number;
  /** after / before − 1; null when before is 0. */
  readonly step: number | null;
}
