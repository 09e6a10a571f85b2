// One shard of a sharded run, from a plan to its folder: measure this shard's part, then write
// shard.json beside the summaries. It decides nothing: a shard's benchmarks are a slice of one
// false-discovery family and one round model, and a verdict over a slice would be another
// gate's (a regression on a shard with few benchmarks is easier to confirm than in the whole
// family). `benchgate merge`, or the action's report job, decides over every shard.
import path from "node:path";
import type { Machine } from "../ports/machine.ts";
import { critcmpFile } from "../runner/critcmp-step.ts";
import { plural } from "../runner/rounds-state.ts";
import { describeTimings } from "../runner/step-timings.ts";
import type { BenchShard } from "../schemas/shard.gen.ts";
import { validateShard } from "../schemas/validate-document.ts";
import { ToolError } from "../errors.ts";
import { SHARD_FILE } from "./merge-shards.ts";
import { measure, type Measurement, type MeasureTarget } from "./measure.ts";
import type { GatePlan } from "./plan.ts";

export interface ShardRun {
  readonly measurement: Measurement;
  readonly shard: BenchShard;
  readonly shardFile: string;
  /** Benchmarks this shard measured (head, latest round). */
  readonly benchmarks: number;
}

export async function runShard(
  plan: GatePlan,
  target: MeasureTarget & { readonly shard: NonNullable<MeasureTarget["shard"]> },
  machine: Machine,
  options: {
    readonly quiet: boolean;
    /**
     * The filter the plan was narrowed by (`--filter`, the action's filter input): it changes
     * which units there are, so shard.json records it for `merge` to compare and to judge by.
     */
    readonly filter?: string | undefined;
  },
): Promise<ShardRun> {
  const measurement = await measure(plan, target, machine, options);
  // A shard's rounds are merged with the other shards': a stopped shard leaves no shard.json.
  if (measurement.stopped !== undefined) throw measurement.stopped.error;
  const { progress, critcmp, shard: outcome } = measurement;
  if (outcome === undefined) throw new ToolError("internal error: a shard run without its split");
  const shardFile = path.join(target.out, SHARD_FILE);
  const shard = validateShard(
    {
      schema_version: 1,
      index: outcome.index,
      count: outcome.count,
      split: outcome.digest,
      base: measurement.commits.base,
      head: measurement.commits.head,
      rounds: measurement.rounds,
      // Each shard ran its own looks: merge checks every shard had this design and replays them.
      ...(plan.run.sequential === undefined
        ? {}
        : {
            sequential: { min_rounds: plan.run.sequential.minRounds, max_rounds: plan.run.rounds },
          }),
      ...(options.filter === undefined ? {} : { filter: options.filter }),
      units: outcome.units,
      golden: [...measurement.golden],
    } satisfies BenchShard,
    shardFile,
  );
  await machine.writer.writeText(shardFile, JSON.stringify(shard, null, 2) + "\n");
  if (critcmp.table !== undefined)
    await machine.writer.writeText(critcmpFile(target.out), critcmp.table);
  const timing = measurement.timings.document(progress.elapsedMs());
  await machine.writer.writeText(
    path.join(target.out, "timings.json"),
    JSON.stringify(timing, null, 2) + "\n",
  );
  progress.line(describeTimings(timing));
  const last = measurement.head.at(-1)?.summary.benchmarks.length ?? 0;
  return { measurement, shard, shardFile, benchmarks: last };
}

/** What a shard run says when it is done: what it measured, and that the verdict is merge's. */
export function describeShardRun(run: ShardRun): string {
  const { shard } = run;
  return `shard ${shard.index}/${shard.count}: ${plural(run.benchmarks, "benchmark")} measured in ${plural(shard.rounds, "round")} (${shard.units.mine} of ${plural(shard.units.total, "unit")}); no verdict from one shard: merge every shard's folder with \`benchgate merge DIR...\``;
}
