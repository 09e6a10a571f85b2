// `kind: divan`: a Cargo bench target whose harness is divan. The bench binary is built once per
// side (runner/run-benchmarks.ts), then each side and round runs `cargo bench --bench B --
// [args] [filter]`. Divan writes no file: the runner saves the process's stdout (divan's table;
// cargo and divan write everything else to stderr) as OUT/raw/<suite>/<side>-<round>.divan.txt,
// and `ingest divan` reads it.
import path from "node:path";
import { InputError } from "../../../errors.ts";
import type { DivanSuite } from "../../../schemas/config.gen.ts";
import type { Argv } from "../../config-checks.ts";
import { cargoBenchTarget, cargoTargetArgs, checkFilter } from "../cargo-bench-target.ts";
import type { CargoBenchTarget, SuiteBase, SuiteKind } from "../suite-kind.ts";

export interface DivanSuitePlan extends SuiteBase, CargoBenchTarget {
  readonly kind: "divan";
  /** divan's positional filter: a regular expression over its `root::group::bench` paths. */
  readonly filter?: string;
}

/**
 * Divan options that print something other than a run's table, which ingest would then refuse
 * after the whole run: refused in the config instead.
 */
const OUTPUT_OPTIONS = ["--list", "--test", "--format", "--help", "-h", "--version", "-V"];

function divanRunArgv(suite: DivanSuitePlan): Argv {
  const argv: [string, ...string[]] = [
    "cargo",
    "bench",
    ...cargoTargetArgs(suite),
    "--",
    ...suite.args,
  ];
  // divan's filter is positional; the config refuses one that starts with "-".
  if (suite.filter !== undefined) argv.push(suite.filter);
  return argv;
}

/** Where: iterations of the one benchmark profiled, the same on both sides. */
const PROFILE_ITERATIONS = 100;

/**
 * Where: the bench executable's arguments that run benchmark `id` alone for a fixed count of
 * iterations. The id is divan's path with `/` for `::` (ingest divan), so the path is the id's
 * parts joined again; `--exact` makes an id whose argument holds a `/` match nothing, which the
 * step reports (no instructions counted) rather than profile another benchmark. The time
 * options are set so that neither a bench's own `min_time` nor `max_time` changes the count
 * (divan's command line wins over a bench's attributes). A thread count other than one is
 * refused: divan's worker threads run outside the loop Callgrind counts.
 */
function divanProfileArgs(id: string): Argv {
  const parts = id.split("/");
  const threads = /^t=([0-9]+)$/.exec(parts.at(-1) ?? "")?.[1];
  if (threads !== undefined && threads !== "1")
    throw new Error(
      `divan runs it on ${threads} threads, and Callgrind counts only the benchmark loop's own thread`,
    );
  const divanPath = (threads === undefined ? parts : parts.slice(0, -1)).join("::");
  return [
    "--bench",
    "--exact",
    divanPath,
    ...(threads === undefined ? [] : ["--threads", "1"]),
    "--sample-count",
    "1",
    "--sample-size",
    String(PROFILE_ITERATIONS),
    "--min-time",
    "0",
    "--max-time",
    "86400",
  ];
}

/**
 * `/rebench <filter>` is a regular expression over benchgate's ids (`root/group/bench/arg`);
 * divan matches its filter against `root::group::bench::arg`, so each `/` becomes `::`.
 */
function divanFilter(text: string): string {
  return text.replaceAll("/", "::");
}

export const divanSuite: SuiteKind<DivanSuite, DivanSuitePlan> = {
  name: "divan",
  plan(raw, base, at) {
    const { key, source } = at;
    checkFilter(raw.filter, "divan", at);
    (raw.args ?? []).forEach((arg, i) => {
      const option = arg.split("=")[0] as string;
      if (OUTPUT_OPTIONS.includes(option))
        throw new InputError(
          `${option} makes divan print something other than a run's table, which benchgate reads`,
          { source, jsonPath: `${key}/args/${i}` },
        );
    });
    return {
      kind: "divan",
      ...base,
      ...cargoBenchTarget(raw, at),
      ...(raw.filter === undefined ? {} : { filter: raw.filter }),
    };
  },
  // The /rebench filter replaces the configured one, as Criterion's does.
  filter: (plan, _filter, text) => ({ ...plan, filter: divanFilter(text) }),
  // An id does not tell divan's path back for sure (a `t=N` thread count is not part of it, an
  // argument may hold a "/"): the target runs whole and the runner keeps the open benchmarks.
  narrow: (plan, { ids }) => (ids.length === 0 ? undefined : { plan, unfiltered: true }),
  runsWhole: true,
  // The executable is named for Where, which runs it directly; the rounds run cargo bench.
  build: { target: (plan) => plan, runsExecutable: true },
  profile: {
    args: divanProfileArgs,
    // The function that runs one sample's loop on each thread: divan calls it through a
    // function pointer, so it is never inlined (its loop, `bench_loop_threaded`, is); divan's
    // timer calibration, which reads the clock until it settles, stays outside.
    collect: "divan::thread_pool::TaskShared*::new::call",
    wholeRun: `divan ran ${PROFILE_ITERATIONS} iterations on each side (--sample-count 1 --sample-size ${PROFILE_ITERATIONS}), so these are per ${PROFILE_ITERATIONS} iterations`,
  },
  step(plan, run) {
    return {
      argv: divanRunArgv(plan),
      output: {
        format: "divan",
        path: path.join(run.dir, `${run.tag}.divan.txt`),
        fromStdout: true,
      },
    };
  },
};
