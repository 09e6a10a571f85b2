// The history noise of a one-run comparison from the default branch's history the caller has
// read (compare --history, the action's report mode with history-branch). The runner the history
// must match is the one head ran on.
import type { NoiseSource } from "../core/compare-summaries.ts";
import { noiseKey, type HistoryNoise } from "../core/history-noise.ts";
import type { SourcedSummary } from "../core/pairing.ts";
import type { BenchHistory } from "../schemas/history.gen.ts";
import type { BenchReport } from "../schemas/report.gen.ts";
import { estimateHistoryNoise, HISTORY_NOISE_DEFAULTS } from "../history/estimate-history-noise.ts";

interface HistoryNoiseRequest {
  /** The default branch's history.json, already read and validated. */
  readonly history: BenchHistory | undefined;
  /** Most recent records per series (default 30). */
  readonly window?: number | undefined;
}

/** The noise the history gives a comparison of these summaries; undefined without a history. */
export function historyNoise(
  request: HistoryNoiseRequest,
  head: readonly SourcedSummary[],
): HistoryNoise | undefined {
  if (request.history === undefined) return undefined;
  const fingerprint = head.find((h) => h.summary.environment?.fingerprint !== undefined)?.summary
    .environment?.fingerprint;
  const window = request.window ?? HISTORY_NOISE_DEFAULTS.window;
  // A head that recorded no runner cannot be matched to any record: which runner's noise the
  // history holds is then unknown, and it is not used (rather than every runner's, as if it were
  // this one's).
  if (fingerprint === undefined) return { ...NO_RECORDS, basis: { ...NO_RECORDS.basis, window } };
  return estimateHistoryNoise(request.history, { fingerprint, window });
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
    window: HISTORY_NOISE_DEFAULTS.window,
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
  return `no benchmark has ${HISTORY_NOISE_DEFAULTS.minRecords} usable records in it (single runs on head's runner since its last change point)`;
}
