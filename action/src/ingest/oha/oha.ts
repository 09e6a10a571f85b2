// oha `--output-format json` (1.15 and 1.16; docs/formats.md, "oha") → the entries of one
// endpoint (../load-entries.ts). oha sorts what came back into two places: every HTTP response,
// whatever its status, is counted in `statusCodeDistribution` and timed; every request that got
// none is counted under its error text in `errorDistribution`, untimed. Requests oha cancelled
// itself when `-z` ran out are the error "aborted due to deadline": neither sent nor failed.
// oha's own `successRate` and `requestsPerSec` count every response as a success and the
// cancelled requests as sent, so neither is used. Times are in seconds. Pure.
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
  rootAt,
} from "../json-guards.ts";
import {
  type Latencies,
  type LoadFileOptions,
  asCount,
  asNs,
  loadEntries,
} from "../load-entries.ts";

const NS_PER_S = 1e9;

/** The error oha records for a request it cancelled at the end of `-z` (its ClientError::Deadline). */
const OHA_DEADLINE = "aborted due to deadline";

/** More distinct error texts than this is not a file oha wrote for one endpoint. */
const MAX_ERROR_KINDS = 100_000;

interface Responses {
  readonly successes: number;
  readonly non2xx: number;
}

/** `statusCodeDistribution`: {"200": n, "404": n, …}. */
function responses(root: JsonObject, at: At): Responses {
  const codesAt = child(at, "statusCodeDistribution");
  const codes = asObject(field(root, "statusCodeDistribution"), codesAt, "an object of counts");
  let successes = 0;
  let non2xx = 0;
  for (const [status, value] of Object.entries(codes)) {
    const where = child(codesAt, status);
    if (!/^[1-9][0-9]{2}$/.test(status))
      fail(where, `${JSON.stringify(status.slice(0, 32))} is not an HTTP status code`);
    const count = asCount(value, where);
    if (status.startsWith("2")) successes += count;
    else non2xx += count;
  }
  return { successes, non2xx };
}

/** `errorDistribution`: {error text: n}; the deadline's count is returned apart. */
function transportErrors(root: JsonObject, at: At): { errors: number; aborted: number } {
  const errorsAt = child(at, "errorDistribution");
  const texts = asObject(field(root, "errorDistribution"), errorsAt, "an object of counts");
  const entries = Object.entries(texts);
  if (entries.length > MAX_ERROR_KINDS)
    fail(errorsAt, `${entries.length} distinct errors, limit ${MAX_ERROR_KINDS}`);
  let errors = 0;
  let aborted = 0;
  for (const [text, value] of entries) {
    const count = asCount(value, child(errorsAt, text));
    if (text === OHA_DEADLINE) aborted += count;
    else errors += count;
  }
  return { errors, aborted };
}

/**
 * The percentiles of the 2xx responses when oha split them (`--stats-success-breakdown`), else
 * those of every response. oha writes null for a percentile of no response at all.
 */
function latencies(root: JsonObject, at: At): Latencies {
  const key = hasField(root, "latencyPercentilesSuccessful")
    ? "latencyPercentilesSuccessful"
    : "latencyPercentiles";
  const percentilesAt = child(at, key);
  const percentiles = asObject(field(root, key), percentilesAt, "an object of percentiles");
  const read = (name: string): ReturnType<typeof asNs> => {
    if (!hasField(percentiles, name))
      fail(percentilesAt, `missing "${name}" (oha writes p10 to p99.99)`);
    return asNs(field(percentiles, name), child(percentilesAt, name), NS_PER_S);
  };
  return { p50: read("p50"), p95: read("p95"), p99: read("p99"), p99_9: read("p99.9") };
}

/** Parses one oha --output-format json document into the entries of its endpoint. */
export function parseOha(data: unknown, source: string, options: LoadFileOptions): Benchmark[] {
  const at = rootAt(source);
  const root = asObject(data, at, "an oha --output-format json object");
  for (const key of ["summary", "latencyPercentiles", "statusCodeDistribution"]) {
    if (!hasField(root, key))
      fail(
        at,
        `not an oha --output-format json file: missing "${key}"${lookAlike(options.guess, data)}`,
      );
  }
  const summaryAt = child(at, "summary");
  const summary = asObject(field(root, "summary"), summaryAt);
  const durationS = asNonNegative(field(summary, "total"), child(summaryAt, "total"));

  const { successes, non2xx } = responses(root, at);
  const { errors, aborted } = transportErrors(root, at);
  const requests = successes + non2xx + errors;
  if (requests === 0 && aborted > 0)
    fail(
      child(child(at, "errorDistribution"), OHA_DEADLINE),
      `all ${aborted} requests were still waiting for an answer when the run's time was up: ` +
        "none was answered, so there is no rate or latency to report",
    );
  return loadEntries(
    {
      requests,
      successes,
      errors,
      non2xx,
      durationS,
      ...(successes > 0 ? { latencies: latencies(root, at) } : {}),
    },
    at,
    "oha",
    options,
  );
}
