// benchgate history <subcommand>: the default branch's history on gh-pages (docs/history.md).
// Each subcommand lives in its own file as `history<Name>Command(argv, deps)`.
import { docsUrl } from "../../version.ts";
import { InputError } from "../../errors.ts";
import { EXIT } from "../exit-codes.ts";
import type { Machine } from "../../ports/machine.ts";
import { historyAppendCommand } from "./history-append.ts";
import { historyImportCommand } from "./history-import.ts";
import { historySiteCommand } from "./history-site.ts";
import { historySupersedeCommand } from "./history-supersede.ts";

type Subcommand = (argv: readonly string[], deps: Machine) => Promise<number>;

const SUBCOMMANDS: ReadonlyMap<string, { run: Subcommand; summary: string }> = new Map([
  [
    "append",
    {
      run: historyAppendCommand,
      summary: "record a default-branch report.json in history.json on gh-pages",
    },
  ],
  [
    "import",
    {
      run: historyImportCommand,
      summary: "import github-action-benchmark's data.js (or its JSON) into history.json",
    },
  ],
  ["site", { run: historySiteCommand, summary: "write the static history page from history.json" }],
  [
    "supersede",
    {
      run: historySupersedeCommand,
      summary: "mark a new baseline: benchmarks that changed their method at a commit",
    },
  ],
]);

function historyHelp(): string {
  const lines = [...SUBCOMMANDS].map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`);
  return `Usage: benchgate history <subcommand> [options]   (benchgate history <subcommand> --help)

The benchmark history of the default branch, kept on the gh-pages branch:
${docsUrl("docs/history.md")}

Subcommands:
${lines.join("\n")}`;
}

export async function historyCommand(argv: readonly string[], deps: Machine): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "-h" || name === "--help" || name === "help") {
    deps.out(historyHelp() + "\n");
    return name === undefined ? EXIT.badInput : EXIT.pass;
  }
  const sub = SUBCOMMANDS.get(name);
  if (sub === undefined)
    throw new InputError(
      `unknown history subcommand ${JSON.stringify(name)} (one of ${[...SUBCOMMANDS.keys()].join(", ")}; see benchgate history --help)`,
    );
  return sub.run(rest, deps);
}
