// Standard output and standard error, the one place their writes and failures are handled
// (docs/cli.md, "Outputs"). Every write passes the workflow-command guard, because a CI log obeys
// lines that start with "::" (docs/threat-model.md, O6). A stream that fails never crashes the
// process with a stack trace: a reader that went away (EPIPE, `benchgate … | head -1`) is not an
// error of ours, so its stream goes quiet and the command finishes with its own exit code; any
// other failure (a full disk, an I/O error) is one line on standard error and exit code 3.
import { workflowCommandGuard } from "../render/workflow-commands.ts";

/** The part of a Node writable stream used here (tests pass a fake). */
export interface TerminalStream {
  write(text: string): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

export interface Terminal {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** The exit code to leave with: `code`, or 3 once a stream failed for a reason other than EPIPE. */
  exitCode(code: number): number;
}

// The tool-failure exit code of docs/cli.md (cli/exit-codes.ts is above io/ and not imported).
const TOOL_FAILURE = 3;

type State = "open" | "closed" | "failed";

/**
 * A terminal on two streams. `onFailure` runs once, when a stream fails for a reason other than
 * EPIPE, after the one error line (if standard error can still take it).
 */
export function terminalOn(
  stdout: TerminalStream,
  stderr: TerminalStream,
  onFailure: () => void,
): Terminal {
  const state: Record<"out" | "err", State> = { out: "open", err: "open" };
  let failed = false;
  const streams = { out: stdout, err: stderr } as const;
  const names = { out: "standard output", err: "standard error" } as const;
  const guards = { out: workflowCommandGuard(), err: workflowCommandGuard() };

  const fail = (which: "out" | "err", error: unknown): void => {
    if (state[which] !== "open") return;
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    state[which] = code === "EPIPE" ? "closed" : "failed";
    if (state[which] === "closed" || failed) return;
    failed = true;
    const what = error instanceof Error ? error.message : String(error);
    if (which === "out") write("err", `benchgate: error: cannot write to ${names.out} (${what})\n`);
    onFailure();
  };
  const write = (which: "out" | "err", text: string): void => {
    if (state[which] !== "open" || text === "") return;
    try {
      streams[which].write(guards[which](text));
    } catch (error) {
      fail(which, error);
    }
  };
  stdout.on("error", (error) => fail("out", error));
  stderr.on("error", (error) => fail("err", error));
  return {
    out: (text) => write("out", text),
    err: (text) => write("err", text),
    exitCode: (code) => (failed ? TOOL_FAILURE : code),
  };
}

let processTerminal: Terminal | undefined;

/** The process's own terminal, made once (its listeners stay on process.stdout and stderr). */
export function nodeTerminal(): Terminal {
  processTerminal ??= terminalOn(process.stdout, process.stderr, () => {
    // Also when the failure is reported after the command returned its code.
    process.exitCode = TOOL_FAILURE;
  });
  return processTerminal;
}
