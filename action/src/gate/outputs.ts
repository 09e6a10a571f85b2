// The files a decision leaves in the output folder: report.json (the verdict and every
// benchmark), comment.md (the PR comment), and from a run critcmp.txt and timings.json. Paths are
// fixed names under `out`, never built from a benchmark's name.
import path from "node:path";
import type { Machine } from "../ports/machine.ts";
import { critcmpFile } from "../runner/critcmp-step.ts";
import type { Decision } from "./decide.ts";

export interface OutputFiles {
  readonly reportFile: string;
  readonly commentFile: string;
}

interface RunExtras {
  readonly critcmpTable?: string | undefined;
  /** timings.json's document: where the time went. */
  readonly timings?: unknown;
}

function outputFiles(out: string): OutputFiles {
  return { reportFile: path.join(out, "report.json"), commentFile: path.join(out, "comment.md") };
}

export async function writeOutputs(
  out: string,
  decision: Decision,
  extras: RunExtras,
  machine: Pick<Machine, "writer">,
): Promise<OutputFiles> {
  const files = outputFiles(out);
  await machine.writer.writeText(files.reportFile, JSON.stringify(decision.report, null, 2) + "\n");
  if (extras.critcmpTable !== undefined)
    await machine.writer.writeText(critcmpFile(out), extras.critcmpTable);
  await machine.writer.writeText(files.commentFile, decision.markdown);
  if (extras.timings !== undefined)
    await machine.writer.writeText(
      path.join(out, "timings.json"),
      JSON.stringify(extras.timings, null, 2) + "\n",
    );
  return files;
}
