// benchgate compare --base FILE... --head FILE... : the decision rule on summaries → report.
import { InputError } from "../../errors.ts";
import { decide } from "../../gate/decide.ts";
import { warnDeprecated } from "../../gate/load-plan.ts";
import { judgementFrom } from "../../gate/plan.ts";
import type { SourcedSummary } from "../../core/pairing.ts";
import { readConfigFile, readHistoryFile, readSummaryFile } from "../../ingest/read-document.ts";
import { historyNoise, unusedHistoryReason } from "../../gate/history-noise-source.ts";
import { HISTORY_NOISE_DEFAULTS } from "../../history/estimate-history-noise.ts";
import { renderText } from "../../render/text.ts";
import { booleanFlag, integerFlag, listFlag, parseFlags, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import { ingestBaselines } from "../../ingest/index.ts";
import { docsUrl, VERSION } from "../../version.ts";
import type { Machine } from "../../ports/machine.ts";
import { SETTING_FLAGS, SETTING_FLAGS_HELP, statisticsOverrides } from "../statistics-flags.ts";

/** critcmp's table is shown folded; a larger file is not a table worth reading. */
const MAX_CRITCMP_BYTES = 1024 * 1024;

const COMPARE_HELP = `Usage: benchgate compare --base FILE... --head FILE... [options]
       benchgate compare --criterion DIR [options]

Compares benchmark summaries (summary.json, from \`benchgate ingest\`) of the base and head of a
change and decides which benchmarks really changed. Files of the same side with the same
\`round\` are merged; base and head rounds with the same number are paired. With one run per
side the result is labelled unverified (no replication), unless --history or --aba tells how
noisy one run is (§14 of ${docsUrl("docs/statistics.md")}).

Options:
  --base FILE...        summaries of the base side (one or more)
  --head FILE...        summaries of the head side (one or more)
  --criterion DIR       instead of summaries: a Criterion tree's baselines base-N and head-N
                        (what \`benchgate run\` saves, round N of each side), read in one walk,
                        as \`ingest criterion DIR --baselines 'base-*,head-*'\` would
  --json FILE           write report.json (its schema: report.v1.schema.json, below); - for
                        stdout
  --markdown FILE       write the PR comment markdown; - for stdout
  --config FILE         benchgate.yml (its statistics:, budgets:, claims: and smells: blocks)
  --critcmp FILE        critcmp's text table of the same runs, folded into the markdown
  --history FILE        one run per side: the default branch's history.json (gh-pages); each
                        benchmark's run-to-run noise is estimated from its recent single-run
                        records on head's runner (same fingerprint) since its last change point;
                        records far outside the rest are set aside and named, and what the
                        single-run rule fails still fails
  --history-window N    with --history: at most N recent records per benchmark (default ${HISTORY_NOISE_DEFAULTS.window})
  --aba                 base, head, base in one job: two base runs (rounds 1 and 2) and one
                        head run; the noise comes from the two base runs
  --quiet               print nothing but errors (implied when --json or --markdown is -)
  -h, --help            show this help

${SETTING_FLAGS_HELP}

Budgets (benchgate.yml, checked on the head side):
  budgets:
    - benchmark: "archive_write/*"    # glob over the full id; * also matches "/"
      p95: "< 25ms"
      max-regression: 5%              # fails only when the CI's lower end is above it

Benchmark smells are reported as warnings; benchgate.yml's smells: block can ignore kinds or
make them fail the gate (smells: {fail-on: [flat-scaling]}).
Smells: ${docsUrl("docs/smells.md")}

The report's schema: ${docsUrl("schemas/report.v1.schema.json")}

Exit codes: 0 pass or inconclusive, 1 regression confirmed, a budget broken or a claim false (or
inconclusive with --fail-on-inconclusive), 2 bad usage or invalid input, 3 tool or environment
failure.`;

/** The base-N and head-N baselines of a Criterion tree as summaries, in one walk. */
async function criterionRounds(
  tree: string,
  deps: Machine,
): Promise<{ base: SourcedSummary[]; head: SourcedSummary[] }> {
  const read = await ingestBaselines(
    "criterion",
    tree,
    { baselines: "base-*,head-*", version: VERSION },
    deps.reader,
  );
  const side = (name: "base" | "head"): SourcedSummary[] =>
    read
      .filter((r) => r.summary.side === name)
      .map((r) => ({ source: `${tree} (baseline ${r.baseline})`, summary: r.summary }));
  const base = side("base");
  const head = side("head");
  if (base.length === 0 || head.length === 0)
    throw new InputError(
      `the Criterion tree has ${base.length} base-N and ${head.length} head-N baselines; compare needs both sides (baselines: ${read.map((r) => r.baseline).join(", ")})`,
      { source: tree },
    );
  return { base, head };
}

export async function compareCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const args = parseFlags(argv, {
    base: { kind: "variadic" },
    head: { kind: "variadic" },
    json: { kind: "string" },
    markdown: { kind: "string" },
    config: { kind: "string" },
    critcmp: { kind: "string" },
    criterion: { kind: "string" },
    history: { kind: "string" },
    "history-window": { kind: "string" },
    aba: { kind: "boolean" },
    quiet: { kind: "boolean" },
    help: { kind: "boolean", short: "h" },
    ...SETTING_FLAGS,
  });
  if (booleanFlag(args, "help")) {
    deps.out(COMPARE_HELP + "\n");
    return EXIT.pass;
  }
  if (args.positionals.length > 0) {
    throw new InputError(
      `unexpected argument ${JSON.stringify(args.positionals[0])} (files go after --base/--head)`,
    );
  }
  const baseFiles = listFlag(args, "base");
  const headFiles = listFlag(args, "head");
  const tree = stringFlag(args, "criterion");
  if (tree !== undefined && (baseFiles.length > 0 || headFiles.length > 0))
    throw new InputError("give --criterion DIR or --base/--head summaries, not both");
  if (tree === undefined && (baseFiles.length === 0 || headFiles.length === 0)) {
    throw new InputError(
      "compare needs --base FILE... and --head FILE..., or --criterion DIR (see --help)",
    );
  }
  // Flags first: a bad flag is reported before any file is read.
  const statistics = statisticsOverrides(args);
  const historyFile = stringFlag(args, "history");
  const aba = booleanFlag(args, "aba");
  if (historyFile !== undefined && aba)
    throw new InputError("give --history or --aba, not both: they are two ways to learn the noise");
  if (historyFile === undefined && stringFlag(args, "history-window") !== undefined)
    throw new InputError("--history-window needs --history FILE");
  const window = integerFlag(
    args,
    "history-window",
    HISTORY_NOISE_DEFAULTS.window,
    HISTORY_NOISE_DEFAULTS.minRecords,
    100000,
  );
  const configFile = stringFlag(args, "config");
  const config =
    configFile === undefined ? undefined : await readConfigFile(deps.reader, configFile);
  if (config !== undefined && configFile !== undefined) warnDeprecated(config, configFile, deps);
  const judgement = judgementFrom(config, configFile, { statistics });

  const load = async (files: readonly string[]): Promise<SourcedSummary[]> => {
    const out: SourcedSummary[] = [];
    for (const source of files)
      out.push({ source, summary: await readSummaryFile(deps.reader, source) });
    return out;
  };
  const { base, head } =
    tree === undefined
      ? { base: await load(baseFiles), head: await load(headFiles) }
      : await criterionRounds(tree, deps);
  const critcmpFile = stringFlag(args, "critcmp");
  const critcmpTable =
    critcmpFile === undefined
      ? undefined
      : await deps.reader.readText(critcmpFile, MAX_CRITCMP_BYTES);
  const history =
    historyFile === undefined ? undefined : await readHistoryFile(deps.reader, historyFile);
  const noise = aba ? ({ kind: "aba" } as const) : historyNoise({ history, window }, head);
  const { report, markdown } = decide(
    judgement,
    { base, head, critcmpTable, noise },
    deps.clock.date(),
  );

  // Rounds measure their own noise; the history is then not needed, and the user is told.
  if (history !== undefined && report.mode !== "history" && !booleanFlag(args, "quiet"))
    deps.err(`benchgate: note: --history not used: ${unusedHistoryReason(report, noise)}\n`);
  const jsonFile = stringFlag(args, "json");
  const markdownFile = stringFlag(args, "markdown");
  const emit = async (file: string, text: string): Promise<void> => {
    if (file === "-") deps.out(text);
    else await deps.writer.writeText(file, text);
  };
  if (jsonFile !== undefined) await emit(jsonFile, JSON.stringify(report, null, 2) + "\n");
  if (markdownFile !== undefined) await emit(markdownFile, markdown);
  const toStdout = jsonFile === "-" || markdownFile === "-";
  if (!booleanFlag(args, "quiet") && !toStdout) deps.out(renderText(report, {}) + "\n");
  return report.verdict === "fail" ? EXIT.gateFailed : EXIT.pass;
}
