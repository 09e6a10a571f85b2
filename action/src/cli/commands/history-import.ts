// benchgate history import FILE [--into HISTORY] -o OUT: github-action-benchmark's data.js (or
// its external-data-json-path JSON) → benchgate's history.json, merged into an existing history
// when --into is given. Local files only; publishing to gh-pages is `history append`'s job.
import { docsUrl } from "../../version.ts";
import { InputError } from "../../errors.ts";
import { MAX_GAB_DATA_BYTES } from "../../history/gab-data-js.ts";
import { importGabDataText } from "../../history/gab-import.ts";
import { serializeHistory } from "../../history/history-json.ts";
import { readHistoryFile } from "../../ingest/read-document.ts";
import { booleanFlag, parseFlags, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";

const HISTORY_IMPORT_HELP = `Usage: benchgate history import FILE -o OUT [--into HISTORY] [--strict]

Imports the history github-action-benchmark keeps on gh-pages — its data.js
(window.BENCHMARK_DATA = {...}) or the JSON file it writes with external-data-json-path — into
benchgate's history.json. The file is read as data, never run. The schema:
${docsUrl("schemas/history.v1.schema.json")}

Each gab suite and bench becomes a series (unit as given, direction from the unit when it is a
time or a rate, else from gab's tool); each value a point without a confidence interval, its
range/extra text kept; the entries of one commit in all suites become one commit record.
Every run is kept: a commit gab ran more than once has its latest run as its results and the
earlier runs as reruns. Everything that is not kept exactly is listed as a warning.

Options:
  -o, --output FILE   write the history here (atomically); - for standard output
  --into HISTORY      merge into this existing history.json (OUT may be the same file): a commit
                      it has keeps its record, and the file's runs of it that the record does
                      not hold are added (as reruns when benchgate measured the record)
  --strict            fail, writing nothing, if any value of the file would not be in the
                      history (null values, a bench listed twice in one entry)
  -h, --help          show this help

Exit codes: 0 written, 2 bad usage or invalid input (one line naming the file and problem).`;

export async function historyImportCommand(
  argv: readonly string[],
  deps: Machine,
): Promise<number> {
  const args = parseFlags(argv, {
    output: { kind: "string", short: "o" },
    into: { kind: "string" },
    strict: { kind: "boolean" },
    help: { kind: "boolean", short: "h" },
  });
  if (booleanFlag(args, "help")) {
    deps.out(HISTORY_IMPORT_HELP + "\n");
    return EXIT.pass;
  }
  const [file, extra] = args.positionals;
  if (file === undefined) throw new InputError("history import needs FILE (see --help)");
  if (extra !== undefined) throw new InputError(`unexpected argument ${JSON.stringify(extra)}`);
  const output = stringFlag(args, "output");
  if (output === undefined)
    throw new InputError("history import needs -o OUT (a history.json to write, or -)");
  const into = stringFlag(args, "into");

  const existing = into === undefined ? undefined : await readHistoryFile(deps.reader, into);
  const text = await deps.reader.readText(file, MAX_GAB_DATA_BYTES);
  const { history, counts, warnings, data } = importGabDataText(text, file, {
    existing,
    now: deps.clock.date().toISOString(),
  });
  for (const line of warnings) deps.err(`benchgate: warning: ${line}\n`);
  // Values already in the --into history are kept, just not twice.
  const unkept = counts.values - counts.points - counts.alreadyPresent;
  if (booleanFlag(args, "strict") && unkept > 0)
    throw new InputError(
      `${unkept} of ${counts.values} values would not be in the history (see the warnings); nothing written (--strict)`,
      { source: file },
    );

  const json = serializeHistory(history);
  if (output === "-") deps.out(json);
  else await deps.writer.writeText(output, json);
  const merged =
    into === undefined
      ? ""
      : ` (${counts.newCommits} new commits, ${counts.mergedCommits} already in ${into}` +
        (counts.alreadyPresent > 0 ? `, ${counts.alreadyPresent} values already there)` : ")");
  deps.err(
    `imported ${file} (${data.form}): ${count(counts.suites, "suite")}, ${counts.series} series, ` +
      `${count(counts.commits, "commit")}, ${counts.points} of ${counts.values} values as points, ` +
      `${count(counts.reruns, "earlier run")} as reruns${merged}` +
      ` → ${output === "-" ? "standard output" : output}\n`,
  );
  return EXIT.pass;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
