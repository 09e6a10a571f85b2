// The noise source of a one-run comparison, from what the caller has: the default branch's
// history (compare --history, the action's report mode with history-branch) or the base, head,
// base design (--aba). The runner the history must match is the one head ran on.
import type { NoiseSource } from "../core/compare.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import type { BenchHistory } from "../schemas/history.gen.ts";
import { estimateRunNoise } from "../history/run-to-run-noise.ts";

export interface NoiseRequest {
  /** The default branch's history.json, already read and validated. */
  readonly history?: BenchHistory | undefined;
  /** Most recent records per series (default 30). */
  readonly window?: number | undefined;
  /** Base, head, base in one job. */
  readonly aba?: boolean;
}

/** The noise source a comparison of these summaries should use, if any. */
export function noiseSource(
  request: NoiseRequest,
  head: readonly SourcedSummary[],
): NoiseSource | undefined {
  if (request.aba === true) return { kind: "aba" };
  if (request.history === undefined) return undefined;
  const fingerprint = head.find((h) => h.summary.environment?.fingerprint !== undefined)?.summary
    .environment?.fingerprint;
  return estimateRunNoise(request.history, {
    fingerprint,
    ...(request.window === undefined ? {} : { window: request.window }),
  });
}
