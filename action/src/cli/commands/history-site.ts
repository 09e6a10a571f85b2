// benchgate history site --history FILE --out DIR [--title TEXT]: the static history page.
import { docsUrl } from "../../version.ts";
import path from "node:path";
import { InputError } from "../../errors.ts";
import { readHistoryFile } from "../../ingest/read-document.ts";
import { loadSiteAssets } from "../../site/site-assets.ts";
import { DEFAULT_TITLE, SITE_FILES, renderSite } from "../../site/site-files.ts";
import { booleanFlag, parseFlags, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";

const MAX_TITLE = 200;

const HISTORY_SITE_HELP = `Usage: benchgate history site --history FILE --out DIR [--title TEXT]

Writes the benchmark history page: one chart per benchmark, grouped by suite, with the median,
its confidence band, the budget, detected change points, environment changes and superseded
baselines (history supersede: the line breaks there, the reason is shown); commit, message,
author and date on hover; filter by name (substring or glob) and suite. The page is static and
self-contained (uPlot is bundled, nothing is fetched from the network): open DIR/index.html from
disk, or serve DIR (gh-pages).

Files written to DIR (created if missing; these four files are replaced):
  ${SITE_FILES.html}          the page (a Content-Security-Policy allows only these files)
  ${SITE_FILES.script}    the app and uPlot
  ${SITE_FILES.style}   its styles
  ${SITE_FILES.data}   the history as the page reads it

Options:
  --history FILE     history.json (its schema: history.v1.schema.json, below)
  --out DIR          where to write the page
  --title TEXT       the page's title (default "${DEFAULT_TITLE}")
  -h, --help         show this help

Change points are found per benchmark on the medians over commits: a rank-based seeded binary
segmentation, robust to outliers and noise, at least 5 commits per level, in each segment
between superseded baselines on its own ("Change points" in the docs:
${docsUrl("docs/history.md")}).

The history's schema: ${docsUrl("schemas/history.v1.schema.json")}

Exit codes: 0 written, 2 bad usage, an invalid history or a DIR that cannot be written, 3 the
page's script could not be built (running from sources without esbuild installed).`;

export async function historySiteCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const args = parseFlags(argv, {
    history: { kind: "string" },
    out: { kind: "string" },
    title: { kind: "string" },
    help: { kind: "boolean", short: "h" },
  });
  if (booleanFlag(args, "help")) {
    deps.out(HISTORY_SITE_HELP + "\n");
    return EXIT.pass;
  }
  if (args.positionals.length > 0) {
    throw new InputError(`unexpected argument ${JSON.stringify(args.positionals[0])} (see --help)`);
  }
  const historyFile = stringFlag(args, "history");
  const out = stringFlag(args, "out");
  if (historyFile === undefined || out === undefined) {
    throw new InputError("history site needs --history FILE and --out DIR (see --help)");
  }
  const title = stringFlag(args, "title") ?? DEFAULT_TITLE;
  if (title.trim() === "" || title.length > MAX_TITLE) {
    throw new InputError(`--title must be 1 to ${MAX_TITLE} characters`);
  }

  const history = await readHistoryFile(deps.reader, historyFile);
  const { files, model } = renderSite(history, await loadSiteAssets(), { title });
  await deps.dirs.ensure(out);
  // The page last, so that a reader never gets a new page with the previous data.
  const order = [...files.keys()].sort(
    (a, b) => Number(a === SITE_FILES.html) - Number(b === SITE_FILES.html),
  );
  const sizes: string[] = [];
  for (const name of order) {
    const text = files.get(name) as string;
    await deps.writer.writeText(path.join(out, name), text);
    sizes.push(`${name} ${formatBytes(Buffer.byteLength(text))}`);
  }
  const changes = model.series.reduce((sum, s) => sum + s.changes.length, 0);
  deps.out(
    `wrote the history page to ${out}: ${history.series.length} benchmarks, ` +
      `${history.commits.length} commits, ${changes} change points (${sizes.join(", ")})\n`,
  );
  return EXIT.pass;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}
