// benchgate ingest KIND INPUT [-o FILE]: one tool's output → summary.json.
import { InputError } from "../../errors.ts";
import type { FormatKind } from "../../ingest/format-kind.ts";
import { formatKind, ingest, INGEST_KINDS, isIngestKind } from "../../ingest/index.ts";
import { FORMAT_KINDS } from "../../ingest/registry.ts";
import { validateSummary } from "../../schemas/validate.ts";
import type { BenchSummary } from "../../schemas/summary.gen.ts";
import { VERSION } from "../../version.ts";
import { booleanFlag, integerFlag, parseArgs, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";

/** The kind and its input in a column as wide as the longest (`criterion DIR --baseline NAME`). */
const USAGE_WIDTH = 32;

/** A kind's command line: `criterion DIR --baseline NAME`, `gungraun DIR`, `gab FILE`. */
function kindUsage(kind: FormatKind): string {
  if (kind.input === "directory")
    return kind.baseline === undefined ? `${kind.name} DIR` : `${kind.name} DIR --baseline NAME`;
  return kind.nameOption === undefined ? `${kind.name} FILE` : `${kind.name} FILE [--name NAME]`;
}

/** One kind's entry under "Kinds:" in the help: its command line, then what the input is. */
function kindHelp(kind: FormatKind): string {
  const usage = kindUsage(kind);
  return kind.help
    .map((line, i) => `  ${(i === 0 ? usage : "").padEnd(USAGE_WIDTH)}${line}`)
    .join("\n");
}

const TOOLS = FORMAT_KINDS.map((k) => k.title ?? k.name).join("/");

/** The --name lines of the help: one per kind that takes it. */
const NAME_HELP = FORMAT_KINDS.flatMap((k) =>
  k.nameOption === undefined ? [] : [`  --name NAME           ${k.name}: ${k.nameOption}`],
).join("\n");

/** `benchgate --help`'s line for this command. */
export const INGEST_SUMMARY = `convert ${TOOLS} output to summary.json`;

export const INGEST_HELP = `Usage: benchgate ingest KIND INPUT [options]

Reads one tool's output and writes a normalized, schema-checked summary.json
(schemas/summary.v1.schema.json): one side of one round.

Kinds:
${FORMAT_KINDS.map(kindHelp).join("\n")}

Options:
  -o, --output FILE     write here (atomically) instead of standard output
  --baseline NAME       Criterion baseline to read (required for criterion)
${NAME_HELP}
  --suite NAME          suite name for every benchmark (default: the tool's name)
  --side LABEL          side label stored in the file (default: the baseline, or "run")
  --round N             round number, 1-based (default 1)
  --commit SHA          40-hex commit the numbers belong to
  --ref REF             branch or tag name
  --started-at TIME     ISO-8601 start of the run (lets compare tell which side ran first)
  --finished-at TIME    ISO-8601 end of the run
  -h, --help            show this help

Exit codes: 0 written, 2 bad usage or invalid input (one line naming the file and problem).`;

export async function ingestCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const args = parseArgs(argv, {
    output: { kind: "string", short: "o" },
    baseline: { kind: "string" },
    name: { kind: "string" },
    suite: { kind: "string" },
    side: { kind: "string" },
    round: { kind: "string" },
    commit: { kind: "string" },
    ref: { kind: "string" },
    "started-at": { kind: "string" },
    "finished-at": { kind: "string" },
    help: { kind: "boolean", short: "h" },
  });
  if (booleanFlag(args, "help")) {
    deps.out(INGEST_HELP + "\n");
    return EXIT.pass;
  }
  const [kind, input, extra] = args.positionals;
  if (kind === undefined || input === undefined)
    throw new InputError("ingest needs KIND and INPUT (see --help)");
  if (extra !== undefined) throw new InputError(`unexpected argument ${JSON.stringify(extra)}`);
  if (!isIngestKind(kind))
    throw new InputError(
      `unknown kind ${JSON.stringify(kind)}; expected one of ${INGEST_KINDS.join(", ")}`,
    );
  const baseline = stringFlag(args, "baseline");
  const format = formatKind(kind);
  if (format.input === "directory" && format.baseline !== undefined && baseline === undefined)
    throw new InputError(`ingest ${kind} needs --baseline NAME (${format.baseline})`);
  const side =
    stringFlag(args, "side") ??
    (baseline !== undefined && /^[A-Za-z0-9._-]{1,64}$/.test(baseline) ? baseline : "run");
  const round = integerFlag(args, "round", 1, 1, 10000);
  const suite = stringFlag(args, "suite");
  const name = stringFlag(args, "name");

  const summary = await ingest(
    kind,
    input,
    {
      side,
      round,
      version: VERSION,
      ...(baseline === undefined ? {} : { baseline }),
      ...(suite === undefined ? {} : { suite }),
      ...(name === undefined ? {} : { name }),
    },
    deps.reader,
  );
  const stamped: BenchSummary = { ...summary };
  const commit = stringFlag(args, "commit");
  const ref = stringFlag(args, "ref");
  const startedAt = stringFlag(args, "started-at");
  const finishedAt = stringFlag(args, "finished-at");
  if (commit !== undefined) stamped.commit = commit;
  if (ref !== undefined) stamped.ref = ref;
  if (startedAt !== undefined) stamped.started_at = startedAt;
  if (finishedAt !== undefined) stamped.finished_at = finishedAt;
  // Flags are input too: the result is checked against the schema before anything is written.
  validateSummary(stamped, "command-line options");

  const text = JSON.stringify(stamped, null, 2) + "\n";
  const output = stringFlag(args, "output");
  if (output === undefined || output === "-") deps.out(text);
  else {
    await deps.writer.writeText(output, text);
    deps.err(
      `wrote ${output}: ${stamped.benchmarks.length} benchmarks (${kind}, side ${side}, round ${round})\n`,
    );
  }
  return EXIT.pass;
}
