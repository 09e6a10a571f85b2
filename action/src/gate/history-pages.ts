// The files written beside history.json on every history append: the page (index.html, its
// script, style and data) and github-action-benchmark's data.js, which that project's page and
// tools read (docs/history.md).
import { exportGabDataJs } from "../history/gab-export.ts";
import { MAX_EXTRA_FILE_BYTES } from "../history/pages-paths.ts";
import type { BenchHistory } from "../schemas/history.gen.ts";
import type { SiteAssets } from "../site/site-assets.ts";
import { renderSite } from "../site/site-files.ts";

/** github-action-benchmark's page and tools read this file; we keep it beside ours. */
export const GAB_DATA_FILE = "data.js";

interface PagesFilesOptions {
  /** The page's title (the page's own default when absent). */
  readonly title?: string | undefined;
  /** https://server/owner/name, which data.js names as its repository. */
  readonly repositoryUrl?: string | undefined;
}

interface HistoryPages {
  /** The files for a merged history; the pages writer calls it once per attempt. */
  readonly files: (history: BenchHistory) => ReadonlyMap<string, string>;
  /** data.js's size when the last call left it out (only the last attempt's files count). */
  readonly skippedBytes: () => number | undefined;
}

export function historyPages(assets: SiteAssets, options: PagesFilesOptions): HistoryPages {
  const { title, repositoryUrl } = options;
  let skipped: number | undefined;
  // The page and data.js are rebuilt from the merged history on every attempt, so they always
  // show exactly what history.json holds in the same commit. data.js is github-action-benchmark's
  // verbose format (about 6× history.json): past the per-file cap it is left out with a warning
  // rather than stopping every later append.
  const files = (history: BenchHistory): ReadonlyMap<string, string> => {
    const site = new Map(renderSite(history, assets, title === undefined ? {} : { title }).files);
    const gab = exportGabDataJs(
      history,
      repositoryUrl === undefined ? {} : { repoUrl: repositoryUrl },
    );
    const bytes = Buffer.byteLength(gab);
    skipped = bytes > MAX_EXTRA_FILE_BYTES ? bytes : undefined;
    if (skipped === undefined) site.set(GAB_DATA_FILE, gab);
    return site;
  };
  return { files, skippedBytes: () => skipped };
}
