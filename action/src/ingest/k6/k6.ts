// k6 `--summary-export` (k6 v1.8.1; docs/formats.md, "k6") → the entries of one endpoint
// (../load-entries.ts). The export holds one object per metric under "metrics":
// `http_reqs` {count, rate}, `http_req_failed` {passes, fails} and the trend
// `http_req_duration{expected_response:true}`, the duration of the responses the script's
// response callback accepts, in ms, with only the statistics the run's summaryTrendStats named.
// `http_req_duration` itself also times every refused connection, as 0 ms, so it is not used.
// Pure.
import type { Benchmark } from "../../schemas/summary.gen.ts";
import { lookAlike } from "../format-kind.ts";
import {
  type At,
  type JsonObject,
  asNonNegative,
  asObject,
  child,
  fail,
  field,
  hasField,
  isObject,
  rootAt,
} from "../json-guards.ts";
import {
  type Latencies,
  type LoadFileOptions,
  MAX_RUN_SECONDS,
  asCount,
  asNs,
  loadEntries,
} from "../load-entries.ts";

const NS_PER_MS = 1e6;

/** The trend of the successful requests' durations (k6 ≥ 0.31 adds it by itself). */
export const K6_SUCCESS_DURATION = "http_req_duration{expected_response:true}";

/** How to make k6 export the percentiles benchgate reads. */
const TREND_STATS_HINT =
  `k6 exports only the statistics summaryTrendStats names: run with ` +
  `--summary-trend-stats "med,p(95),p(99),p(99.9)" (or set options.summaryTrendStats in the script)`;

function metric(metrics: JsonObject, name: string, at: At, missing: string): JsonObject {
  if (!hasField(metrics, name)) fail(at, `no "${name}" metric: ${missing}`);
  return asObject(field(metrics, name), child(at, name), `k6's ${name} object`);
}

/** med (or p(50)), p(95), p(99) and, when exported, p(99.9), in ms. */
function latencies(trend: JsonObject, at: At): Latencies {
  const read = (...keys: string[]): ReturnType<typeof asNs> => {
    const key = keys.find((k) => hasField(trend, k));
    if (key === undefined) fail(at, `missing "${keys.join('" or "')}": ${TREND_STATS_HINT}`);
    return asNs(field(trend, key), child(at, key), NS_PER_MS);
  };
  const p50 = read("med", "p(50)");
  const p95 = read("p(95)");
  const p99 = read("p(99)");
  return hasField(trend, "p(99.9)") ? { p50, p95, p99, p99_9: read("p(99.9)") } : { p50, p95, p99 };
}

/** Parses one k6 --summary-export document into the entries of its endpoint. */
export function parseK6(data: unknown, source: string, options: LoadFileOptions): Benchmark[] {
  const at = rootAt(source);
  const root = asObject(data, at, "a k6 --summary-export object");
  if (!hasField(root, "metrics") || !hasField(root, "root_group"))
    fail(
      at,
      `not a k6 --summary-export file: missing "${hasField(root, "metrics") ? "root_group" : "metrics"}"${lookAlike(options.guess, data)}`,
    );
  const metricsAt = child(at, "metrics");
  const metrics = asObject(field(root, "metrics"), metricsAt);
  const reqsAt = child(metricsAt, "http_reqs");
  const reqs = metric(metrics, "http_reqs", metricsAt, "the script made no HTTP request");
  // handleSummary's data nests each metric's numbers under "values"; the export does not.
  if (isObject(field(reqs, "values")))
    fail(
      reqsAt,
      "this is k6's handleSummary data (a metric's numbers under \"values\"); benchgate reads the file of k6 run --summary-export FILE",
    );
  const requests = asCount(field(reqs, "count"), child(reqsAt, "count"));
  if (requests === 0) fail(child(reqsAt, "count"), "the run sent no request");
  const rate = asNonNegative(field(reqs, "rate"), child(reqsAt, "rate"));
  if (rate === 0) fail(child(reqsAt, "rate"), `a rate of 0 for ${requests} requests`);
  // The run's length is not in the export: it is count / rate, so a rate far too small for the
  // count is the problem to name, not the length it implies.
  const durationS = requests / rate;
  if (!(durationS <= MAX_RUN_SECONDS))
    fail(
      child(reqsAt, "rate"),
      `a rate of ${rate} req/s for ${requests} requests means a run of ${durationS} s, more than a year: not a rate k6 writes`,
    );

  const failedAt = child(metricsAt, "http_req_failed");
  const failedMetric = metric(
    metrics,
    "http_req_failed",
    metricsAt,
    "k6 writes it unless the script turned its response callback off (http.setResponseCallback(null)); without it failures cannot be counted",
  );
  // A rate metric counts its true samples as "passes": for http_req_failed, the failed requests.
  const failed = asCount(field(failedMetric, "passes"), child(failedAt, "passes"));
  const successes = asCount(field(failedMetric, "fails"), child(failedAt, "fails"));
  if (failed + successes !== requests)
    fail(
      failedAt,
      `counts ${failed + successes} requests (passes ${failed} + fails ${successes}), http_reqs ${requests}: ` +
        "a request whose callback was turned off is counted in neither",
    );

  let latency: Latencies | undefined;
  if (successes > 0) {
    const trend = metric(
      metrics,
      K6_SUCCESS_DURATION,
      metricsAt,
      "k6 writes it beside http_req_duration when a request succeeded",
    );
    latency = latencies(trend, child(metricsAt, K6_SUCCESS_DURATION));
  }
  return loadEntries(
    {
      requests,
      successes,
      durationS,
      ...(latency === undefined ? {} : { latencies: latency }),
    },
    at,
    "k6",
    options,
  );
}
