// One shard of a sharded run, from a plan to its folder: measure this shard's part, then write
// shard.json beside the summaries. It decides nothing: a shard's benchmarks are a slice of one
// false-discovery family and one round model, and a verdict over a slice would be another
// gate's (a regression on a shard with few benchmarks is easier to confirm than in the whole
// family). `benchgate merge`, or the action's report job, decides over every shard. Only "Where
// it regressed" looks at a provisional decision of the slice, to choose what to profile; the
// merge shows a Where only where its own decision confirms the regression.
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
import { decide } from "./decide.ts";
import {
  findWhere,
  keepsCheckoutsForWhere,
  WHERE_MAX_REGRESSIONS,
  whereContext,
  whereMachine,
} from "./where-step.ts";
import type { ShardTag } from "../core/shard-blocks.ts";
import type { GatePlan } from "./plan.ts";

export interface ShardRun {
  readonly measurement: Measurement;
  readonly shard: BenchShard;
  readonly shardFile: string;
  /** Benchmarks this shard measured (head, latest round). */
  readonly benchmarks: number;
}

type ShardWhere = NonNullable<BenchShard["where"]>[number];

/**
 * Where it regressed, for a shard: its own benchmarks decided provisionally (a slice, so never
 * a verdict: only to find what to profile) and its largest regressions profiled as an unsharded
 * run's are, its files numbered in the shard's own range. merge keeps an entry only where its
 * decision over every shard confirms the regression. A failure is a warning: never the shard's.
 */
async function shardWhere(
  plan: GatePlan,
  measurement: Measurement,
  target: Pick<MeasureTarget, "out" | "cacheDir"> & { readonly shard: ShardTag },
  machine: Machine,
): Promise<ShardWhere[]> {
  const { progress } = measurement;
  try {
    const { report } = decide(plan, measurement, machine.clock.date());
    const offset = (target.shard.index - 1) * WHERE_MAX_REGRESSIONS;
    const wheres = await findWhere(
      report,
      whereContext(plan, measurement, target, offset),
      whereMachine(machine, measurement),
    );
    return [...wheres].flatMap(([at, where]) => {
      const entry = report.benchmarks[at];
      return entry === undefined ? [] : [{ suite: entry.suite, id: entry.id, where }];
    });
  } catch (error) {
    progress.warn(`where: left out of shard.json: ${(error as Error).message}`);
    return [];
  }
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
  const measurement = await measure(plan, target, machine, {
    ...options,
    keepCheckouts: keepsCheckoutsForWhere(plan),
  });
  let where: ShardWhere[] | undefined;
  try {
    // A shard's rounds are merged with the other shards': a stopped shard leaves no shard.json.
    if (measurement.stopped !== undefined) throw measurement.stopped.error;
    if (plan.where) where = await shardWhere(plan, measurement, target, machine);
  } finally {
    await measurement.checkouts?.release();
  }
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
      ...(where === undefined || where.length === 0 ? {} : { where }),
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
