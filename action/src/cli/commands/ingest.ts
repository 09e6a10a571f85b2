// benchgate ingest KIND INPUT [-o FILE]: one tool's output → summary.json.
import { InputError } from "../../errors.ts";
import { ingest, INGEST_KINDS, type IngestKind } from "../../ingest/index.ts";
import { validateSummary } from "../../schemas/validate.ts";
import type { BenchSummary } from "../../schemas/summary.gen.ts";
import { VERSION } from "../../version.ts";
import { booleanFlag, integerFlag, parseArgs, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";

export const INGEST_HELP = `Usage: benchgate ingest KIND INPUT [options]

Reads one tool's output and writes a normalized, schema-checked summary.json
(schemas/summary.v1.schema.json): one side of one round.

Kinds:
  criterion DIR --baseline NAME   a Criterion.rs 0.3.3–0.8 tree (target/criterion or its parent);
                                  benchmarks saved with --save-baseline NAME, keyed by full_id
  hyperfine FILE                  hyperfine --export-json (>= 1.15); failed commands are errors
  critcmp FILE                    critcmp --export JSON (estimates only, no samples)
  custom FILE                     a benchgate summary.json, or a harness summary with
                                  p50/p95/p99 and raw samples (see docs/formats.md)
  gab FILE                        github-action-benchmark's custom JSON [{name,unit,value,range}]

Options:
  -o, --output FILE     write here (atomically) instead of standard output
  --baseline NAME       Criterion baseline to read (required for criterion)
  --suite NAME          suite name for every benchmark (default: the tool's name)
  --side LABEL          side label stored in the file (default: the baseline, or "run")
  --round N             round number, 1-based (default 1)
  --commit SHA          40-hex commit the numbers belong to
  --ref REF             branch or tag name
  --started-at TIME     ISO-8601 start of the run (lets compare tell which side ran first)
  --finished-at TIME    ISO-8601 end of the run
  -h, --help            show this help

Exit codes: 0 written, 2 bad usage or invalid input (one line naming the file and problem).`;

function isIngestKind(value: string): value is IngestKind {
  return (INGEST_KINDS as readonly string[]).includes(value);
}

export async function ingestCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const args = parseArgs(argv, {
    output: { kind: "string", short: "o" },
    baseline: { kind: "string" },
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
  if (kind === "criterion" && baseline === undefined) {
    throw new InputError(
      "ingest criterion needs --baseline NAME (the name given to --save-baseline)",
    );
  }
  const side =
    stringFlag(args, "side") ??
    (baseline !== undefined && /^[A-Za-z0-9._-]{1,64}$/.test(baseline) ? baseline : "run");
  const round = integerFlag(args, "round", 1, 1, 10000);
  const suite = stringFlag(args, "suite");

  const summary = await ingest(
    kind,
    input,
    {
      side,
      round,
      version: VERSION,
      ...(baseline === undefined ? {} : { baseline }),
      ...(suite === undefined ? {} : { suite }),
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
