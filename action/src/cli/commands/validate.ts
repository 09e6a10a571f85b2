// benchgate validate FILE... [--schema summary|report|config|history]
import { docsUrl } from "../../version.ts";
import { InputError } from "../../errors.ts";
import { MAX_BYTES, parseYamlText, readJsonFile } from "../../ingest/read-document.ts";
import {
  DOCUMENT_KINDS,
  validateConfig,
  validateDocument,
  type DocumentKind,
} from "../../schemas/validate-document.ts";
import type { BenchgateConfig } from "../../schemas/config.gen.ts";
import { warnDeprecated } from "../../gate/load-plan.ts";
import { checkConfigDocument } from "../../gate/plan.ts";
import { booleanFlag, parseFlags, stringFlag } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";

const VALIDATE_HELP = `Usage: benchgate validate FILE... [--schema summary|report|config|history]

Checks each file against its JSON Schema (${docsUrl("schemas/")})
and the rules a schema cannot express (unique benchmark ids; in a history, unique series and commits). Without
--schema the kind is guessed: .yml/.yaml files are configs, JSON with a "verdict" is a report,
JSON with "commits" a history (gh-pages history.json), other JSON a summary. In a config, every
path (golden.checksums, golden.outputs, a suite's manifest-path or output) must be relative and
stay inside its folder: no leading /, no ".." part, no backslash; and a config must pass
what run checks in the file itself (durations from 1ms to 7 days, unique names, budgets and
claims that parse), so a config validate passes is one run reads.

Options:
  --schema KIND   summary, report, config or history
  -h, --help      show this help

Exit codes: 0 all valid, 2 a file is invalid (one line naming the file, the JSON path and
the problem).`;

function isDocumentKind(value: string): value is DocumentKind {
  return (DOCUMENT_KINDS as readonly string[]).includes(value);
}

/** The schema, then what `run` refuses in the file itself (gate/plan.ts). */
function runnableConfig(data: unknown, file: string, deps: Machine): BenchgateConfig {
  const config = validateConfig(data, file);
  checkConfigDocument(config, file);
  warnDeprecated(config, file, deps);
  return config;
}

export async function validateCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const args = parseFlags(argv, {
    schema: { kind: "string" },
    help: { kind: "boolean", short: "h" },
  });
  if (booleanFlag(args, "help")) {
    deps.out(VALIDATE_HELP + "\n");
    return EXIT.pass;
  }
  if (args.positionals.length === 0)
    throw new InputError("validate needs at least one FILE (see --help)");
  const forced = stringFlag(args, "schema");
  if (forced !== undefined && !isDocumentKind(forced)) {
    throw new InputError(
      `--schema must be one of ${DOCUMENT_KINDS.join(", ")}, got ${JSON.stringify(forced)}`,
    );
  }
  for (const file of args.positionals) {
    const yaml = /\.ya?ml$/i.test(file);
    let kind: DocumentKind = forced ?? (yaml ? "config" : "summary");
    let data: unknown;
    if (kind === "config" && yaml) {
      data = parseYamlText(await deps.reader.readText(file, MAX_BYTES.config), file);
    } else {
      data = await readJsonFile(deps.reader, file, MAX_BYTES[kind]);
      if (forced === undefined && typeof data === "object" && data !== null) {
        if ("verdict" in data) kind = "report";
        else if ("commits" in data) kind = "history";
        else if ("split" in data) kind = "shard";
      }
    }
    const doc =
      kind === "config" ? runnableConfig(data, file, deps) : validateDocument(kind, data, file);
    const detail =
      "benchmarks" in doc
        ? ` (${doc.benchmarks.length} benchmarks)`
        : "commits" in doc
          ? ` (${doc.commits.length} commits, ${doc.series.length} series)`
          : "";
    deps.out(`${file}: valid ${kind}.v1${detail}\n`);
  }
  return EXIT.pass;
}
