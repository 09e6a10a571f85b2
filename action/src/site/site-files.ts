// The history page as files (docs/history.md, "The history page"): index.html, the app script and stylesheet (uPlot
// bundled in, nothing fetched from elsewhere) and the data as a script. One function for the
// CLI (`benchgate history site`) and for the gh-pages writer, which puts the same files beside
// history.json on every append. The output depends only on the history and the options, so an
// unchanged history rewrites identical files.
import { escapeHtml } from "../render/escape-html.ts";
import type { BenchHistory } from "../schemas/history.gen.ts";
import type { ChangePointOptions } from "../history/change-points.ts";
import { buildPageModel } from "./page-data.ts";
import type { PageModel } from "./page-model.ts";
import { scriptAssignment } from "./script-data.ts";
import type { SiteAssets } from "./site-assets.ts";

/** The page's files, relative to the directory they are served from. */
export const SITE_FILES = Object.freeze({
  html: "index.html",
  script: "benchgate-app.js",
  style: "benchgate-app.css",
  data: "benchgate-data.js",
});

export const DEFAULT_TITLE = "Benchmark history";

interface SiteOptions {
  /** The page's heading and window title (default "Benchmark history"). */
  readonly title?: string;
  readonly changePoints?: ChangePointOptions;
}

interface RenderedSite {
  readonly files: ReadonlyMap<string, string>;
  /** What the data file holds, for callers that report on it. */
  readonly model: PageModel;
}

/**
 * The page's files for a history (relative path → content) and the model its data file holds,
 * from the bundled assets (`loadSiteAssets()`). Pure.
 */
export function renderSite(
  history: BenchHistory,
  assets: SiteAssets,
  options: SiteOptions = {},
): RenderedSite {
  const title = options.title ?? DEFAULT_TITLE;
  const model = buildPageModel(history, {
    title,
    ...(options.changePoints === undefined ? {} : { changePoints: options.changePoints }),
  });
  const files = new Map([
    [SITE_FILES.html, indexHtml(title)],
    [SITE_FILES.style, assets.style],
    [SITE_FILES.script, assets.script],
    [SITE_FILES.data, scriptAssignment("BENCHGATE_DATA", model)],
  ]);
  return { files, model };
}

/**
 * Only our own files may load (no inline script or style), nothing may be fetched (connect-src
 * 'none'), links and forms cannot be redirected (base-uri, form-action). `file:` is there for
 * the page opened from disk, where some browsers give every file its own origin so that 'self'
 * matches nothing; a page served over http(s) can never load a file: URL.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self' file:",
  "style-src 'self' file:",
  "img-src 'self' data:",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

function indexHtml(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="benchgate">
<link rel="icon" href="data:,">
<title>${escapeHtml(title, { maxLength: 200 })}</title>
<link rel="stylesheet" href="${SITE_FILES.style}">
<script src="${SITE_FILES.data}" defer></script>
<script src="${SITE_FILES.script}" defer></script>
</head>
<body>
<main id="app"><noscript>The charts of this page need JavaScript.</noscript></main>
</body>
</html>
`;
}
