// critcmp's familiar table, shown folded beside our verdict. It is a courtesy, not a gate: when
// critcmp is missing or fails, the report says why and the run goes on.
import path from "node:path";
import type { SuitePlan } from "../config/run-config.ts";
import type { ProcessPort } from "../ports/process.ts";
import { baselineName } from "../config/suites/criterion/criterion-suite.ts";
import { suiteKind } from "../config/suites/registry.ts";
import { suiteDir } from "./run-suite.ts";

const MAX_TABLE_BYTES = 512 * 1024;

/**
 * critcmp's table of `round`: a round in which every benchmark ran (with sequential rounds, later
 * rounds hold only the open benchmarks, and critcmp would show the rest as missing).
 */
export async function critcmpTables(
  suites: readonly SuitePlan[],
  out: string,
  round: number,
  deps: { readonly proc: ProcessPort; readonly env: Readonly<Record<string, string>> },
): Promise<{ table?: string; note?: string }> {
  const criterion = suites.filter((s) => suiteKind(s).critcmpTable === true);
  if (criterion.length === 0) return { note: "no Criterion suite" };
  const tables: string[] = [];
  for (const suite of criterion) {
    const argv = [
      "critcmp",
      "--target-dir",
      suiteDir(out, suite),
      baselineName("base", round),
      baselineName("head", round),
    ];
    let result;
    try {
      result = await deps.proc(argv, {
        cwd: out,
        env: deps.env,
        timeoutMs: 120_000,
        keepStdoutBytes: MAX_TABLE_BYTES,
      });
    } catch {
      return { note: "critcmp is not installed (cargo install critcmp --locked)" };
    }
    if (result.exitCode !== 0)
      return {
        note: `critcmp failed (${result.stderrTail.trim().split("\n").pop() ?? "no message"})`,
      };
    tables.push(criterion.length === 1 ? result.stdout : `# suite ${suite.name}\n${result.stdout}`);
  }
  return { table: `${tables.join("\n").trimEnd()}\n` };
}

/** Where `benchgate run` keeps critcmp's table. */
export function critcmpFile(out: string): string {
  return path.join(out, "critcmp.txt");
}
