// benchgate history supersede ID-GLOB --from SHA --reason TEXT: the benchmarks ID-GLOB matches
// changed their method at a recorded commit, so the history's analyses (change points, the
// page's levels and steps) treat the records from that commit on as a new baseline
// (docs/history.md, "Superseded baselines"). On gh-pages, or in a local history.json.
import { docsUrl } from "../../version.ts";
import { InputError } from "../../errors.ts";
import {
  listBreaks,
  supersedeInFile,
  supersedeOnPages,
  type SupersedeOnPagesRequest,
} from "../../gate/supersede-history.ts";
import { MAX_BREAK_REASON, checkBreakRequest } from "../../history/baseline-breaks.ts";
import { writeContextFrom } from "../../history/github-context.ts";
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_PAGES_BRANCH,
  DEFAULT_PAGES_DIR,
} from "../../history/pages-writer.ts";
import type { Machine } from "../../ports/machine.ts";
import { booleanFlag, integerFlag, parseFlags, stringFlag, type ParsedArgs } from "../args.ts";
import { EXIT } from "../exit-codes.ts";
import { readEventPayload, repositoryUrl } from "./history-append.ts";

const HISTORY_SUPERSEDE_HELP = `Usage: benchgate history supersede ID-GLOB --from SHA --reason TEXT (--remote URL|PATH | --history FILE)
       benchgate history supersede --list (--remote URL|PATH | --history FILE)

Marks that the benchmarks whose id ID-GLOB matches changed their method at commit SHA (a new
harness, another input, counts instead of times): their numbers before SHA and from SHA on are
not comparable. Change points and the page's levels and steps are then found in each part on
its own, never across the mark, and the page breaks the line there with the reason as a note.
Nothing is deleted: every record stays in history.json and on the page. See
${docsUrl("docs/history.md")}

ID-GLOB is matched against whole benchmark ids as in budgets: * any run of characters (also
across /), ? one character, everything else literal; quote it for the shell. It must match at
least one series. SHA is a commit of the history (7 to 40 hex digits; the commit whose record
is the first measured the new way). The same ID-GLOB and SHA again changes nothing, or only the
reason when it differs.

On gh-pages (--remote) the mark is written like a record by history append: a scratch
repository, a push without force, retried when another writer got there first, the page and
data.js rebuilt in the same commit. In a GitHub Actions job the same rule as for appending
applies (a push, workflow_dispatch or schedule run on the default branch); a run on your own
machine writes with your credentials. --history edits a local history.json in place instead
(history site draws it).

Options:
  --from SHA             the first commit measured the new way
  --reason TEXT          why, in one line of plain text (at most ${MAX_BREAK_REASON} characters); shown on the page
  --remote URL|PATH      the repository holding the pages branch (a local path works too)
  --branch NAME          the pages branch (default ${DEFAULT_PAGES_BRANCH})
  --dir DIR              directory on the branch (default ${DEFAULT_PAGES_DIR}; . for the root)
  --attempts N           push attempts before giving up (default ${DEFAULT_MAX_ATTEMPTS})
  --token-env NAME       send the token in this environment variable to an https remote
  --title TEXT           the page's title (default "Benchmark history")
  --repository O/N       in GitHub Actions: only this repository may write
  --history FILE         a local history.json to edit in place instead of --remote
  --list                 print the marks (commit, glob, series matched, when, reason) and exit
  -h, --help             show this help

Exit codes: 0 marked (or already marked) or listed, 2 bad usage, a commit that is not in the
history, a glob that matches no series, an invalid reason, a refused run or a corrupt
history.json, 3 git failed, the branch kept moving, or interrupted.`;

const STRING_FLAGS = [
  "from",
  "reason",
  "remote",
  "branch",
  "dir",
  "attempts",
  "token-env",
  "title",
  "repository",
  "history",
] as const;

/** The flags that only mean something for the pages branch. */
const PAGES_FLAGS = ["branch", "dir", "attempts", "token-env", "title", "repository"] as const;

/** The pages branch to write, and who is writing when GitHub Actions runs the command. */
async function pagesRequest(
  args: ParsedArgs,
  remote: string,
  machine: Machine,
): Promise<Omit<SupersedeOnPagesRequest, "mark">> {
  const { env } = machine;
  const tokenVariable = stringFlag(args, "token-env");
  const token = tokenVariable === undefined ? undefined : env[tokenVariable];
  const inActions = (env["GITHUB_EVENT_NAME"] ?? "") !== "";
  return {
    target: {
      remote,
      branch: stringFlag(args, "branch") ?? DEFAULT_PAGES_BRANCH,
      dir: stringFlag(args, "dir") ?? DEFAULT_PAGES_DIR,
      attempts: integerFlag(args, "attempts", DEFAULT_MAX_ATTEMPTS, 1, 100),
      token: token === "" ? undefined : token,
      title: stringFlag(args, "title"),
      repositoryUrl: repositoryUrl(env),
    },
    context: inActions
      ? writeContextFrom(env, await readEventPayload(machine), {
          repository: stringFlag(args, "repository"),
        })
      : undefined,
    unsetTokenVariable:
      tokenVariable !== undefined && (token ?? "") === "" ? tokenVariable : undefined,
  };
}

export async function historySupersedeCommand(
  argv: readonly string[],
  machine: Machine,
): Promise<number> {
  const args = parseFlags(argv, {
    ...Object.fromEntries(STRING_FLAGS.map((name) => [name, { kind: "string" } as const])),
    list: { kind: "boolean" },
    help: { kind: "boolean", short: "h" },
  });
  if (booleanFlag(args, "help")) {
    machine.out(HISTORY_SUPERSEDE_HELP + "\n");
    return EXIT.pass;
  }
  const [glob, extra] = args.positionals;
  if (extra !== undefined) throw new InputError(`unexpected argument ${JSON.stringify(extra)}`);
  const remote = stringFlag(args, "remote");
  const file = stringFlag(args, "history");
  if ((remote === undefined) === (file === undefined))
    throw new InputError(
      "history supersede needs one of --remote URL|PATH (the pages branch) or --history FILE (see --help)",
    );
  if (file !== undefined) {
    const pagesOnly = PAGES_FLAGS.find((f) => stringFlag(args, f) !== undefined);
    if (pagesOnly !== undefined)
      throw new InputError(`--${pagesOnly} is for --remote; --history edits the file alone`);
  }
  if (booleanFlag(args, "list")) {
    const given = ["from", "reason"].filter((f) => stringFlag(args, f) !== undefined);
    if (glob !== undefined || given.length > 0)
      throw new InputError(
        `--list takes no ${glob !== undefined ? "ID-GLOB" : `--${given[0] ?? ""}`}: it only prints the marks`,
      );
    if (file !== undefined) await listBreaks({ file }, machine);
    else {
      const { target, unsetTokenVariable } = await pagesRequest(args, remote as string, machine);
      if (unsetTokenVariable !== undefined)
        throw new InputError(
          `--token-env ${unsetTokenVariable}: that environment variable is not set`,
        );
      await listBreaks({ target }, machine);
    }
    return EXIT.pass;
  }
  // The mark's own checks come first: a bad glob or reason reads and writes nothing.
  const mark = checkBreakRequest({
    benchmark: glob,
    from: stringFlag(args, "from"),
    reason: stringFlag(args, "reason"),
  });
  if (file !== undefined) await supersedeInFile(file, mark, machine);
  else
    await supersedeOnPages(
      { mark, ...(await pagesRequest(args, remote as string, machine)) },
      machine,
    );
  return EXIT.pass;
}
