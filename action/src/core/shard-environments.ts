// The machines of a merged sharded run. Within a shard base and head ran on one machine, and
// that is what the paired statistics rest on: a difference there is a mismatch, as in an
// unsharded run. Between shards the machines are meant to be identical pinned runners; one that
// is not (another CPU model, kernel or toolchain) does not bias the paired differences, but its
// benchmarks' noise and speed are not comparable to the others', so the report says which shard
// and how it differs (a warning, not a failure).
import { checkEnvironments, COMPARED, type EnvironmentCheck } from "./environment.ts";
import type { ShardsSeen } from "./pairing.ts";
import type { Environment } from "../schemas/summary.gen.ts";

/**
 * What makes two runners the same machine: the fields compared between base and head, but not
 * the runner's name and the fingerprint (which hashes the name), which are meant to differ, and
 * memory compared in whole GiB.
 */
const NOT_MACHINE: ReadonlySet<string> = new Set(["fingerprint", "runner_name", "memory_bytes"]);
const MACHINE_FIELDS = COMPARED.filter((key) => !NOT_MACHINE.has(key));

function machineDifferences(a: Environment, b: Environment): string[] {
  const out: string[] = [];
  for (const key of MACHINE_FIELDS) {
    const x = a[key];
    const y = b[key];
    if (x !== undefined && y !== undefined && JSON.stringify(x) !== JSON.stringify(y))
      out.push(`${key} ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
  }
  // Memory drifts by a few MiB from boot to boot; whole GiB is what a different machine shows.
  const gib = (e: Environment): number | undefined =>
    e.memory_bytes === undefined ? undefined : Math.round(e.memory_bytes / 1024 ** 3);
  const [ma, mb] = [gib(a), gib(b)];
  if (ma !== undefined && mb !== undefined && ma !== mb) out.push(`memory ${ma} GiB vs ${mb} GiB`);
  return out;
}

/**
 * Base against head within every shard (differences name the shard), each side's pinning
 * warnings, and every shard's machine against the lowest-numbered shard's.
 */
export function checkShardEnvironments(shards: ShardsSeen): EnvironmentCheck {
  const differences: string[] = [];
  const warnings: string[] = [];
  let reference: { readonly index: number; readonly env: Environment } | undefined;
  for (const [index, { base, head }] of shards.machines) {
    const own = checkEnvironments(base, head);
    differences.push(...own.differences.map((d) => `shard ${index}: ${d}`));
    warnings.push(...own.warnings.map((w) => `shard ${index}: ${w}`));
    const env = head ?? base;
    if (env === undefined) continue;
    if (reference === undefined) {
      reference = { index, env };
      continue;
    }
    const apart = machineDifferences(reference.env, env);
    if (apart.length > 0)
      warnings.push(
        `shard ${index} ran on a different machine than shard ${reference.index} (${apart.join(", ")}): its benchmarks' noise and speed are not comparable to the other shards'`,
      );
  }
  return {
    mismatch: differences.length > 0,
    differences: differences.slice(0, 64),
    warnings: [...new Set(warnings)].slice(0, 64),
  };
}
