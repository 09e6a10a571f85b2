// The canonical text behind the environment fingerprint (docs/runner-host.md, "What benchgate records"). Pure: the hash itself is
// taken by the caller (collect-environment.ts), so this module needs no crypto and no I/O.
// Only fields that change timings are included; load average and other per-run values are
// not, so the same machine gives the same fingerprint run after run.
import type { Environment } from "../schemas/summary.gen.ts";

/** The fields hashed, in this order. Memory is rounded to whole GiB (MemTotal drifts by boot). */
const FINGERPRINT_FIELDS = [
  "cpu_model",
  "logical_cpus",
  "online_cpus",
  "isolated_cpus",
  "governor",
  "turbo",
  "smt",
  "kernel",
  "rustc",
  "memory_gib",
  "runner_name",
] as const;

const GIB = 1024 ** 3;

/**
 * A canonical, versioned string of the timing-relevant fields: the same values always give the
 * same text, an unknown field is `null`. Hash it to get `Environment.fingerprint`.
 */
export function fingerprintFields(env: Environment): string {
  const memoryGib = env.memory_bytes === undefined ? null : Math.round(env.memory_bytes / GIB);
  const values: Record<(typeof FINGERPRINT_FIELDS)[number], unknown> = {
    cpu_model: env.cpu_model,
    logical_cpus: env.logical_cpus,
    online_cpus: env.online_cpus,
    isolated_cpus: env.isolated_cpus,
    governor: env.governor,
    turbo: env.turbo,
    smt: env.smt,
    kernel: env.kernel,
    rustc: env.rustc,
    memory_gib: memoryGib,
    runner_name: env.runner_name,
  };
  return JSON.stringify([
    "benchgate-env-v1",
    ...FINGERPRINT_FIELDS.map((k) => [k, values[k] ?? null]),
  ]);
}
