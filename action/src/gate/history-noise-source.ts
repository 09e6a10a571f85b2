// The noise source of a one-run comparison, from what the caller has: the default branch's
// history (compare --history, the action's report mode with history-branch) or the base, head,
// base design (--aba). The runner the history must match is the one head ran on.
import type { NoiseSource } from "../core/compare.ts";
import { noiseKey, type HistoryNoise } from "../core/history-noise.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import type { BenchHistory } from "../schemas/history.gen.ts";
import type { BenchReport } from "../schemas/report.gen.ts";
import { estimateRunNoise, RUN_NOISE_DEFAULTS } from "../history/run-to-run-noise.ts";

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
  const window = request.window ?? RUN_NOISE_DEFAULTS.window;
  // A head that recorded no runner cannot be matched to any record: which runner's noise the
  // history holds is then unknown, and it is not used (rather than every runner's, as if it were
  // this one's).
  if (fingerprint === undefined) return { ...NO_RECORDS, basis: { ...NO_RECORDS.basis, window } };
  return estimateRunNoise(request.history, { fingerprint, window });
}

/** A history with nothing usable in it. */
const NO_RECORDS: HistoryNoise = {
  kind: "history",
  series: new Map(),
  setAside: { records: [], values: [] },
  basis: {
    commits: 0,
    first: null,
    last: null,
    fingerprint: null,
    window: RUN_NOISE_DEFAULTS.window,
  },
};

/**
 * Why a history that was given did not decide the comparison (its mode is not `history`), in
 * words for a note: compare's and the action's report say the same.
 */
export function unusedHistoryReason(report: BenchReport, noise: NoiseSource | undefined): string {
  if (report.mode !== "single-run")
    return "base and head have more than one run each, which measure their own noise";
  if (noise?.kind === "history" && noise.basis.commits === 0)
    return noise.basis.fingerprint === null
      ? "head's results record no runner fingerprint, so no record can be shown to come from its runner"
      : `it has no single-run record from head's runner (fingerprint ${noise.basis.fingerprint})`;
  if (noise?.kind === "history" && report.benchmarks.some((e) => noise.series.has(noiseKey(e))))
    return "its records lie so far apart that the noise estimate has no finite interval";
  return `no benchmark has ${RUN_NOISE_DEFAULTS.minRecords} usable records in it (single runs on head's runner since its last change point)`;
}
