// benchgate ingest KIND INPUT [-o FILE]: one tool's output → summary.json. With --baselines GLOB
// --out-dir D (Criterion): every matching baseline in one walk of the tree, one summary each.
import path from "node:path";
import { InputError } from "../../errors.ts";
import type { FormatKind } from "../../ingest/format-kind.ts";
import {
  formatKind,
  ingest,
  ingestBaselines,
  INGEST_KINDS,
  isIngestKind,
  MULTI_BASELINE_KINDS,
  type IngestKind,
} from "../../ingest/index.ts";
import { FORMAT_KINDS } from "../../ingest/registry.ts";
import { validateSummary } from "../../schemas/validate-document.ts";
import type { BenchSummary } from "../../schemas/summary.gen.ts";
import { docsUrl, VERSION } from "../../version.ts";
import { booleanFlag, integerFlag, parseFlags, stringFlag, type ParsedArgs } from "../args.ts";
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

/** The kinds that take --name, grouped by what the name means to them. */
const NAME_USES = new Map<string, string[]>();
for (const k of FORMAT_KINDS)
  if (k.nameOption !== undefined)
    NAME_USES.set(k.nameOption, [...(NAME_USES.get(k.nameOption) ?? []), k.name]);

/** --name in the help once, then one line per meaning (the load tools share one). */
const NAME_HELP = [...NAME_USES]
  .map(
    ([what, kinds], i) =>
      `  ${(i === 0 ? "--name NAME" : "").padEnd(22)}${kinds.join(", ")}: ${what}`,
  )
  .join("\n");

/** `benchgate --help`'s line for this command. */
export const INGEST_SUMMARY = `convert ${TOOLS} output to summary.json`;

const INGEST_HELP = `Usage: benchgate ingest KIND INPUT [options]
       benchgate ingest criterion DIR --baselines GLOB --out-dir DIR [--suite NAME]

Reads one tool's output and writes a normalized, schema-checked summary.json: one side of one
round. Its schema: ${docsUrl("schemas/summary.v1.schema.json")}

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

Every round in one pass (criterion):
  --baselines GLOB      read every baseline whose directory name matches GLOB
                        (* any run of characters, ? one character; quote it) in one
                        walk of the tree; instead of --baseline
  --out-dir DIR         write one summary per baseline to DIR/<baseline>.json
                        (atomically; DIR is created), instead of -o
  A baseline named <side>-<round> (base-3, as benchgate run saves them) gets that
  side and round, any other name is its own side, round 1; --side, --round,
  --commit, --ref, --started-at and --finished-at are refused (they differ
  between the summaries). Each file is byte for byte what --baseline NAME
  --side SIDE --round N -o FILE writes.

Exit codes: 0 written, 2 bad usage or invalid input (one line naming the file and problem).`;

/** Options that describe one side of one round: meaningless for several baselines at once. */
const ONE_RUN_FLAGS = ["output", "side", "round", "commit", "ref", "started-at", "finished-at"];

/** `--baselines GLOB --out-dir DIR`: every summary is read and checked before the first is written. */
async function ingestEveryBaseline(
  kind: IngestKind,
  input: string,
  args: ParsedArgs,
  deps: Machine,
): Promise<number> {
  if (!MULTI_BASELINE_KINDS.includes(kind))
    throw new InputError(
      `ingest ${kind} reads no baselines; --baselines is for ${MULTI_BASELINE_KINDS.join(", ")}`,
    );
  if (stringFlag(args, "baseline") !== undefined)
    throw new InputError("give --baseline NAME (one baseline) or --baselines GLOB, not both");
  const outDir = stringFlag(args, "out-dir");
  if (outDir === undefined)
    throw new InputError("--baselines writes one file per baseline: it needs --out-dir DIR");
  for (const flag of ONE_RUN_FLAGS) {
    if (args.flags.has(flag)) {
      const name = flag === "output" ? "-o/--output" : `--${flag}`;
      throw new InputError(
        `${name} describes one summary; with --baselines each baseline's name gives its side and round (see --help)`,
      );
    }
  }
  if (args.flags.has("name"))
    throw new InputError(`ingest ${kind} takes no benchmark name (--name)`);
  const baselines = stringFlag(args, "baselines") as string;
  const suite = stringFlag(args, "suite");
  const summaries = await ingestBaselines(
    kind,
    input,
    { baselines, version: VERSION, ...(suite === undefined ? {} : { suite }) },
    deps.reader,
  );
  await deps.dirs.ensure(outDir);
  // The baseline name passed as a side label (letters, digits, ".", "_", "-"), so it is a plain
  // file name; nothing of a benchmark's name goes into the path.
  for (const { baseline, summary } of summaries) {
    const file = path.join(outDir, `${baseline}.json`);
    // One line each: these are many large files for compare to read, not for people (-o's
    // single summary stays indented); at 1,000 benchmarks the indentation doubled the bytes.
    await deps.writer.writeText(file, JSON.stringify(summary) + "\n");
    deps.err(
      `wrote ${file}: ${summary.benchmarks.length} benchmarks (${kind}, side ${summary.side}, round ${summary.round})\n`,
    );
  }
  return EXIT.pass;
}

export async function ingestCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const args = parseFlags(argv, {
    output: { kind: "string", short: "o" },
    baseline: { kind: "string" },
    baselines: { kind: "string" },
    "out-dir": { kind: "string" },
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
  if (args.flags.has("baselines")) return ingestEveryBaseline(kind, input, args, deps);
  if (args.flags.has("out-dir"))
    throw new InputError("--out-dir is for --baselines GLOB; one summary goes to -o FILE");
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
