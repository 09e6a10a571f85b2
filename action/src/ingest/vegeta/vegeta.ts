// vegeta `report -type=json` (v12.13.0; docs/formats.md, "vegeta") → the entries of one endpoint
// (../load-entries.ts). `status_codes` counts every request by status, "0" for a request
// that got no response (refused, reset, timed out); `requests` is their sum. `duration` (first to
// last request sent) and `wait` (for the last response) are ns; `latencies` are ns, as t-digest
// estimates over every request, failed ones included: the report has no per-status breakdown,
// and no p99.9. vegeta's own `success` and `throughput` count 3xx as success, so neither is used.
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

/** The status vegeta records for a request that got no response. */
const NO_RESPONSE = "0";

interface Statuses {
  readonly successes: number;
  readonly non2xx: number;
  readonly errors: number;
}

function statuses(root: JsonObject, at: At, requests: number): Statuses {
  const codesAt = child(at, "status_codes");
  const codes = asObject(field(root, "status_codes"), codesAt, "an object of counts");
  let successes = 0;
  let non2xx = 0;
  let errors = 0;
  for (const [status, value] of Object.entries(codes)) {
    const where = child(codesAt, status);
    if (status !== NO_RESPONSE && !/^[1-9][0-9]{2}$/.test(status))
      fail(where, `${JSON.stringify(status.slice(0, 32))} is not an HTTP status code (or "0")`);
    const count = asCount(value, where);
    if (status === NO_RESPONSE) errors += count;
    else if (status.startsWith("2")) successes += count;
    else non2xx += count;
  }
  if (successes + non2xx + errors !== requests)
    fail(codesAt, `counts ${successes + non2xx + errors} requests, "requests" says ${requests}`);
  return { successes, non2xx, errors };
}

function latencies(root: JsonObject, at: At): Latencies {
  const latenciesAt = child(at, "latencies");
  const values = asObject(field(root, "latencies"), latenciesAt, "an object of latencies");
  const read = (key: string): ReturnType<typeof asNs> => {
    if (!hasField(values, key)) fail(latenciesAt, `missing "${key}"`);
    return asNs(field(values, key), child(latenciesAt, key), 1);
  };
  return { p50: read("50th"), p95: read("95th"), p99: read("99th") };
}

/** Parses one vegeta report -type=json document into the entries of its endpoint. */
export function parseVegeta(data: unknown, source: string, options: LoadFileOptions): Benchmark[] {
  const at = rootAt(source);
  const root = asObject(data, at, "a vegeta report -type=json object");
  for (const key of ["latencies", "status_codes", "requests", "duration", "wait"]) {
    if (!hasField(root, key))
      fail(
        at,
        `not a vegeta report -type=json file: missing "${key}"${lookAlike(options.guess, data)}`,
      );
  }
  const requests = asCount(field(root, "requests"), child(at, "requests"));
  const { successes, non2xx, errors } = statuses(root, at, requests);
  const durationNs =
    asNonNegative(field(root, "duration"), child(at, "duration")) +
    asNonNegative(field(root, "wait"), child(at, "wait"));
  return loadEntries(
    {
      requests,
      successes,
      errors,
      non2xx,
      durationS: durationNs / NS_PER_S,
      ...(successes > 0 ? { latencies: latencies(root, at) } : {}),
    },
    at,
    "vegeta",
    options,
  );
}
