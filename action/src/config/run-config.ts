// benchgate.yml for `benchgate run` and `benchgate golden`: read once into a frozen, fully
// defaulted config. The schema (schemas/config.v1.schema.json) has already checked the shapes;
// this adds what a schema cannot say well (unique names, paths that stay inside the repository,
// durations in milliseconds; each suite kind under ./suites/ checks its own entries) and every
// error names the key, e.g. `/suites/1/name`.
import { InputError } from "../errors.ts";
import type { BenchgateConfig } from "../schemas/config.gen.ts";
import { argv, checkRelativePath, parseDuration, unique, type Argv } from "./config-checks.ts";
import { suiteKind, suiteKindList, type RawSuite, type SuitePlan } from "./suites/registry.ts";

export type { SuitePlan };
export { parseDuration };

export const DEFAULT_ROUNDS = 5;

/**
 * How a round runs base and head (docs/run.md, "Schedules"): `pairs`, each benchmark's base and
 * head processes back to back, short and many; `suite`, one process per suite and side.
 */
export const SCHEDULES = ["pairs", "suite"] as const;
export type Schedule = (typeof SCHEDULES)[number];
/**
 * Under contention whole processes land up to 2× off, so the number of processes decides, and
 * short adjacent pairs were 3.7–3.9× better at equal time on a 2-core VM (issue 26's table).
 */
const DEFAULT_SCHEDULE: Schedule = "pairs";
/** rounds: auto without min-rounds / max-rounds. */
export const DEFAULT_SEQUENTIAL = Object.freeze({ minRounds: 3, maxRounds: 15 });
export const DEFAULT_TIMEOUTS = Object.freeze({
  build: 60 * 60_000,
  suite: 30 * 60_000,
  golden: 30_000,
});

export interface GoldenPlan {
  readonly checksums: string;
  readonly outputs?: string;
  readonly commands: readonly {
    readonly name: string;
    readonly command: Argv;
    readonly timeoutMs: number;
  }[];
}

/** rounds: auto — sequential rounds; RunConfig.rounds is then max-rounds. */
interface SequentialPlan {
  /** Every benchmark runs this many rounds before any may stop. */
  readonly minRounds: number;
  /** No round starts that would, by the earlier rounds' times, end after this (rounds only). */
  readonly timeBudgetMs?: number;
}

export interface RunConfig {
  readonly source: string;
  /** At most this many rounds: the fixed count, or max-rounds with rounds: auto. */
  readonly rounds: number;
  /** Present only with rounds: auto. */
  readonly sequential?: SequentialPlan;
  readonly schedule: Schedule;
  readonly build: readonly { readonly command: Argv; readonly timeoutMs: number }[];
  /** For the build steps benchgate adds itself (`cargo bench --no-run`). */
  readonly buildTimeoutMs: number;
  readonly suites: readonly SuitePlan[];
  readonly golden?: GoldenPlan;
}

function suitePlan(raw: RawSuite, i: number, defaultTimeout: number, source: string): SuitePlan {
  const key = `/suites/${i}`;
  const timeoutMs =
    raw.timeout === undefined
      ? defaultTimeout
      : parseDuration(raw.timeout, `${key}/timeout`, source);
  return suiteKind(raw).plan(raw, { name: raw.name, timeoutMs }, { key, source });
}

/**
 * What the command line says about rounds; it wins over benchgate.yml. A fixed count turns a
 * config's `auto` into that many rounds; "auto" turns a fixed config into sequential rounds with
 * the defaults. min/max/budget are only valid when the result is auto.
 */
export interface RoundsOverride {
  readonly rounds?: number | "auto";
  readonly minRounds?: number;
  readonly maxRounds?: number;
  readonly timeBudgetMs?: number;
}

export interface ResolveOptions extends RoundsOverride {
  /** False for `golden`, which only needs the build and golden blocks. */
  readonly needSuites: boolean;
  /** `--schedule`: wins over benchgate.yml's `schedule:`. */
  readonly schedule?: Schedule;
}

const SEQUENTIAL_KEYS = ["min-rounds", "max-rounds", "time-budget"] as const;

/** A value and where it came from, so a conflict names the flag or key to change. */
interface Sourced {
  readonly value: number;
  readonly from: "flag" | "file" | "default";
}

function sourced(flag: number | undefined, file: number | undefined, fallback: number): Sourced {
  if (flag !== undefined) return { value: flag, from: "flag" };
  if (file !== undefined) return { value: file, from: "file" };
  return { value: fallback, from: "default" };
}

function resolveRounds(
  document: BenchgateConfig,
  source: string,
  options: RoundsOverride,
): { rounds: number; sequential?: SequentialPlan } {
  // Checked on the file alone: a key that does nothing in it is a mistake in the file, whatever
  // a flag of one run says.
  if (document.rounds !== "auto")
    for (const key of SEQUENTIAL_KEYS)
      if (document[key] !== undefined)
        throw new InputError(
          `only used with rounds: auto (this config has rounds: ${document.rounds ?? `${DEFAULT_ROUNDS}, the default`})`,
          { source, jsonPath: `/${key}` },
        );
  const fileBudget =
    document["time-budget"] === undefined
      ? undefined
      : parseDuration(document["time-budget"], "/time-budget", source);
  const rounds = options.rounds ?? document.rounds ?? DEFAULT_ROUNDS;
  if (rounds !== "auto") {
    const flags = [
      ["--min-rounds", options.minRounds],
      ["--max-rounds", options.maxRounds],
      ["--time-budget", options.timeBudgetMs],
    ] as const;
    const stray = flags.find(([, value]) => value !== undefined);
    if (stray !== undefined)
      throw new InputError(
        `${stray[0]} is only used with rounds: auto (add --rounds auto, or set rounds: auto in the config)`,
      );
    return { rounds };
  }
  const min = sourced(options.minRounds, document["min-rounds"], DEFAULT_SEQUENTIAL.minRounds);
  const max = sourced(options.maxRounds, document["max-rounds"], DEFAULT_SEQUENTIAL.maxRounds);
  if (min.value > max.value) {
    const origin = (s: Sourced, name: string): string =>
      s.from === "flag" ? ` (--${name})` : s.from === "default" ? " (the default)" : "";
    const message = `min-rounds ${min.value}${origin(min, "min-rounds")} is more than max-rounds ${max.value}${origin(max, "max-rounds")}`;
    // Blame what was written: a flag before the file, min-rounds before max-rounds.
    if (min.from === "flag") throw new InputError(`--min-rounds: ${message}`);
    if (max.from === "flag") throw new InputError(`--max-rounds: ${message}`);
    throw new InputError(message, {
      source,
      jsonPath: min.from === "file" ? "/min-rounds" : "/max-rounds",
    });
  }
  const timeBudgetMs = options.timeBudgetMs ?? fileBudget;
  return {
    rounds: max.value,
    sequential: {
      minRounds: min.value,
      ...(timeBudgetMs === undefined ? {} : { timeBudgetMs }),
    },
  };
}

/** The run configuration from a schema-valid document. */
export function resolveRunConfig(
  document: BenchgateConfig,
  source: string,
  options: ResolveOptions,
): RunConfig {
  const timeouts = document.timeouts ?? {};
  const buildTimeout =
    timeouts.build === undefined
      ? DEFAULT_TIMEOUTS.build
      : parseDuration(timeouts.build, "/timeouts/build", source);
  const suiteTimeout =
    timeouts.suite === undefined
      ? DEFAULT_TIMEOUTS.suite
      : parseDuration(timeouts.suite, "/timeouts/suite", source);
  const goldenTimeout =
    timeouts.golden === undefined
      ? DEFAULT_TIMEOUTS.golden
      : parseDuration(timeouts.golden, "/timeouts/golden", source);
  const rawSuites = document.suites ?? [];
  if (options.needSuites && rawSuites.length === 0)
    throw new InputError(
      `no suites: \`benchgate run\` needs at least one suite (${suiteKindList()})`,
      { source, jsonPath: "/suites" },
    );
  unique(
    rawSuites.map((s) => s.name),
    (i) => `/suites/${i}/name`,
    "suite name",
    source,
  );
  const suites = rawSuites.map((s, i) => suitePlan(s, i, suiteTimeout, source));
  let golden: GoldenPlan | undefined;
  if (document.golden !== undefined) {
    const g = document.golden;
    unique(
      g.commands.map((c) => c.name),
      (i) => `/golden/commands/${i}/name`,
      "golden command name",
      source,
    );
    golden = {
      checksums: checkRelativePath(g.checksums, "/golden/checksums", source),
      ...(g.outputs === undefined
        ? {}
        : { outputs: checkRelativePath(g.outputs, "/golden/outputs", source) }),
      commands: g.commands.map((c, i) => ({
        name: c.name,
        command: argv(c.command, `/golden/commands/${i}/command`, source),
        timeoutMs:
          c.timeout === undefined
            ? g.timeout === undefined
              ? goldenTimeout
              : parseDuration(g.timeout, "/golden/timeout", source)
            : parseDuration(c.timeout, `/golden/commands/${i}/timeout`, source),
      })),
    };
  }
  const { rounds, sequential } = resolveRounds(document, source, options);
  return deepFreeze({
    source,
    rounds,
    ...(sequential === undefined ? {} : { sequential }),
    schedule: options.schedule ?? document.schedule ?? DEFAULT_SCHEDULE,
    buildTimeoutMs: buildTimeout,
    build: (document.build ?? []).map((b, i) => ({
      command: argv(b, `/build/${i}`, source),
      timeoutMs: buildTimeout,
    })),
    suites,
    ...(golden === undefined ? {} : { golden }),
  });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
