// Where a run's wall time goes: each child process is timed by what it is (cargo bench, cargo
// build, hyperfine, git, …), so what is left over is benchgate's own orchestration overhead.
// The run writes this to OUT/timings.json and prints a one-line breakdown.
import path from "node:path";
import type { ProcessPort } from "../ports/process.ts";

interface TimingEntry {
  readonly step: string;
  readonly count: number;
  readonly ms: number;
}

export interface TimingsDocument {
  readonly wall_ms: number;
  readonly tools_ms: number;
  readonly own_ms: number;
  readonly steps: readonly TimingEntry[];
}

/**
 * A name for what a process is: the program, for cargo its subcommand's role, and for a bench
 * executable run directly (`EXE --bench …`, schedule: pairs) not its hashed file name.
 */
export function stepKind(argv: readonly string[]): string {
  if (argv[1] === "--bench") return "bench executable";
  const program = path.basename(argv[0] ?? "?");
  if (program !== "cargo") return program;
  const sub = argv[1] ?? "";
  if (sub === "bench") return argv.includes("--no-run") ? "cargo build" : "cargo bench";
  return `cargo ${sub}`.trim();
}

export class StepTimings {
  readonly #steps = new Map<string, { count: number; ms: number }>();

  record(step: string, ms: number): void {
    const entry = this.#steps.get(step) ?? { count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += ms;
    this.#steps.set(step, entry);
  }

  /**
   * The same port, timing every process it runs (also failed ones), each under what it is, or
   * under `step` when the caller knows better (the Where step's Callgrind runs, which would
   * otherwise be counted as `setarch`).
   */
  wrap(proc: ProcessPort, step?: string): ProcessPort {
    return async (argv, options) => {
      const result = await proc(argv, options);
      this.record(step ?? stepKind(argv), result.durationMs);
      return result;
    };
  }

  document(wallMs: number): TimingsDocument {
    const steps = [...this.#steps]
      .map(([step, e]) => ({ step, count: e.count, ms: Math.round(e.ms) }))
      .sort((a, b) => b.ms - a.ms);
    const tools = steps.reduce((sum, s) => sum + s.ms, 0);
    return {
      wall_ms: Math.round(wallMs),
      tools_ms: tools,
      own_ms: Math.round(wallMs) - tools,
      steps,
    };
  }
}

/** "tools 1:49 (cargo bench 95.1 s ×10, …) + benchgate 1.8 s". */
export function describeTimings(doc: TimingsDocument): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const parts = doc.steps.map((e) => `${e.step} ${s(e.ms)} ×${e.count}`);
  return `time: ${s(doc.wall_ms)} wall = tools ${s(doc.tools_ms)} (${parts.join(", ")}) + benchgate's own ${s(doc.own_ms)}`;
}
