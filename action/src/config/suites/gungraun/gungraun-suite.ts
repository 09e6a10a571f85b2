// `kind: gungraun`: a Cargo bench target written with gungraun (0.20) or iai-callgrind (0.16),
// the Valgrind harnesses. The bench binary hands every benchmark to a runner program that must
// be exactly the library's version: the build step (runner/gungraun-runner.ts) reads the version
// from the side's Cargo.lock, installs that runner once per version and puts it on PATH for this
// suite. Each side and round then runs `cargo bench` with the JSON summaries saved into a fresh
// folder (both harnesses' variables are set: only the library's own are read), and
// `ingest gungraun` reads them: instructions as the primary, deterministic count.
import path from "node:path";
import type { GungraunSuite } from "../../../schemas/config.gen.ts";
import { cargoBenchTarget, cargoTargetArgs } from "../cargo-bench-target.ts";
import { ownCountThresholds } from "../count-thresholds.ts";
import { findGungraunProfile } from "../../../ingest/gungraun/gungraun-profiles.ts";
import type { CargoBenchTarget, OwnCountThresholds, SuiteBase, SuiteKind } from "../suite-kind.ts";

interface GungraunSuitePlan extends SuiteBase, CargoBenchTarget {
  readonly kind: "gungraun";
  readonly counts: OwnCountThresholds;
}

export const gungraunSuite: SuiteKind<GungraunSuite, GungraunSuitePlan> = {
  name: "gungraun",
  plan: (raw, base, at) => ({
    kind: "gungraun",
    ...base,
    ...cargoBenchTarget(raw, at),
    counts: ownCountThresholds(raw, at),
  }),
  // The harness has no filter benchgate can rely on across both versions: it runs whole.
  filter: (plan) => plan,
  narrow: (plan, { ids }) => (ids.length === 0 ? undefined : { plan }),
  runsWhole: true,
  build: { target: (plan) => plan, needsHarnessRunner: true },
  deterministicCounts: { thresholds: ownCountThresholds },
  // The harness keeps each benchmark's Callgrind file in the home folder step() gives it.
  recordedProfile: (_plan, run, id, reader) =>
    findGungraunProfile(path.join(run.dir, run.tag), id, reader),
  step(plan, run) {
    const home = path.join(run.dir, run.tag);
    return {
      argv: ["cargo", "bench", ...cargoTargetArgs(plan), "--", ...plan.args],
      env: {
        GUNGRAUN_HOME: home,
        GUNGRAUN_SAVE_SUMMARY: "json",
        GUNGRAUN_COLOR: "never",
        IAI_CALLGRIND_HOME: home,
        IAI_CALLGRIND_SAVE_SUMMARY: "json",
        IAI_CALLGRIND_COLOR: "never",
      },
      freshDir: home,
      output: { format: "gungraun", path: home },
    };
  },
};
