// What one suite kind of benchgate.yml declares: how its entry becomes a plan, how a plan is
// narrowed (`/rebench <filter>`, sequential rounds) and the command one side and round runs,
// with the ingest format that reads its output. The runner (runner/run-suite.ts) executes the
// step; everything here is pure. A kind is one folder under config/suites/ holding this object,
// its tests and `schema.json`, the `<name>Suite` definition that scripts/gen-schema-types.ts
// puts into schemas/config.v1.schema.json; ./registry.ts lists the kinds.
import type { IngestKind } from "../../ingest/index.ts";
import type { Argv } from "../config-checks.ts";

export type Side = "base" | "head";

/** Where one side lives for the whole run. */
export interface SidePaths {
  readonly worktree: string;
  /** CARGO_TARGET_DIR of this side: never shared with the other side. */
  readonly target: string;
  /**
   * Per suite name, variables its build step set up for this side (a gungraun suite: PATH with
   * the runner of the version its Cargo.lock names).
   */
  readonly suiteEnv?: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /**
   * Per Criterion suite name, the bench executable cargo built for this side (`schedule: pairs`
   * runs it directly: many processes, each without cargo's own start, docs/run.md).
   */
  readonly benchBinaries?: ReadonlyMap<string, BenchBinary>;
}

/** A built bench executable and the folder cargo runs it in (its package's). */
export interface BenchBinary {
  readonly executable: string;
  readonly cwd: string;
}

/** What every plan has, whatever its kind. */
export interface SuiteBase {
  readonly name: string;
  readonly timeoutMs: number;
}

/** A suite of deterministic counts may set its own thresholds (fractions). */
export interface OwnCountThresholds {
  readonly threshold?: number;
  readonly noiseFloor?: number;
}

/** A suite's entry in benchgate.yml: its JSON pointer (`/suites/1`) and file, for errors. */
export interface ConfigAt {
  readonly key: string;
  readonly source: string;
}

/** The benchmarks still open after a look of sequential rounds. */
export interface OpenBenchmarks {
  /** The open ids this suite measured. */
  readonly ids: readonly string[];
  /** Every open id, of any suite. */
  readonly active: ReadonlySet<string>;
}

/** A plan narrowed to some benchmarks; `unfiltered` when the kind could not narrow it. */
export interface Narrowed<Plan> {
  readonly plan: Plan;
  readonly unfiltered?: boolean;
}

/** One side and round of one suite, as the runner hands it to the kind. */
export interface StepContext {
  readonly side: Side;
  readonly round: number;
  /** `<side>-<round>`, for the names of this run's files. */
  readonly tag: string;
  /** OUT/raw/<suite>: the suite's folder for raw outputs (it exists). */
  readonly dir: string;
  readonly paths: SidePaths;
  /** Run this executable instead of `cargo bench` (schedule: pairs; Criterion only). */
  readonly binary?: BenchBinary;
}

/** What a kind's `shorten` knows of the harness both sides link (schedule: pairs). */
export interface HarnessFacts {
  /** Criterion before 0.4 on either side (or no version found): time flags in whole seconds. */
  readonly wholeSeconds: boolean;
}

/** A plan for short processes: the flags benchgate added, and those the user's own args set. */
export interface Shortened<Plan> {
  readonly plan: Plan;
  readonly added: readonly string[];
  /** Flags benchgate would set that the suite already sets: the user's value wins. */
  readonly kept: readonly string[];
}

/** What one side and round of a suite runs, and where its output is read. */
export interface SuiteStep {
  /** Run in the side's worktree, or in `cwd`. */
  readonly argv: Argv;
  /** Where the command runs instead of the worktree (a bench executable: its package folder). */
  readonly cwd?: string;
  /** Added to the side's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The whole environment instead of the side's (instructions: the same bytes on both sides,
   * since the environment moves the stack and changes the count).
   */
  readonly exactEnv?: Readonly<Record<string, string>>;
  /** Removed and created empty before the command runs. */
  readonly freshDir?: string;
  /** A file copied (executable) before the command runs: one side's binary to a shared path. */
  readonly stage?: { readonly from: string; readonly to: string };
  readonly output: {
    readonly format: IngestKind;
    readonly path: string;
    /** For a directory format: the baseline to read. */
    readonly baseline?: string;
    /** For a one-benchmark format (cachegrind): the benchmark's id. */
    readonly name?: string;
    /**
     * When the output is the command's own (not a tool's), what it failed to do when the file is
     * missing: the error then blames the command ("… exited 0 but did not write …").
     */
    readonly missing?: string;
    /**
     * The tool prints its results and writes no file (divan): the runner saves the command's
     * stdout as `path` and reads that.
     */
    readonly fromStdout?: boolean;
  };
  /** Run, but its output is not read (a warm-up load before the measured ones). */
  readonly unread?: boolean;
}

/**
 * A server started for a group of steps (a load suite's endpoints), stopped after them. `{port}`
 * in its argv and URLs and in the steps' argv is a free port the runner picks at start.
 */
export interface ServiceStep {
  readonly service: {
    /** What errors and progress call it: "server", or the variant's name. */
    readonly label: string;
    /** The id prefix of its resource entries: `<prefix>server [peak_rss]` etc. */
    readonly idPrefix: string;
    readonly argv: Argv;
    readonly env?: Readonly<Record<string, string>>;
    /** Polled until it answers 2xx. */
    readonly readyUrl: string;
    readonly readyTimeoutMs: number;
    /** Between SIGTERM and SIGKILL when it is stopped. */
    readonly stopGraceMs: number;
  };
  readonly steps: readonly SuiteStep[];
}

/** What a kind's step may be: one command, several, or groups run against a server each. */
export type AnyStep = SuiteStep | readonly SuiteStep[] | readonly ServiceStep[];

// Methods (not function properties) on purpose: their parameters are checked bivariantly, so
// every kind is a SuiteKind of the union of all plans that ./registry.ts dispatches by name.
export interface SuiteKind<
  Raw extends { readonly kind: string },
  Plan extends SuiteBase & { readonly kind: Raw["kind"] },
  Step extends AnyStep = SuiteStep | readonly SuiteStep[],
> {
  readonly name: Raw["kind"];
  /** benchgate.yml's entry (schema-valid) → the plan; checks what the schema cannot say. */
  plan(raw: Raw, base: SuiteBase, at: ConfigAt): Plan;
  /** `/rebench <filter>`: the plan for the ids `filter` (text `text`) matches, or undefined. */
  filter(plan: Plan, filter: RegExp, text: string): Plan | undefined;
  /** Sequential rounds: the plan for the open benchmarks, or undefined when none is open. */
  narrow(plan: Plan, open: OpenBenchmarks): Narrowed<Plan> | undefined;
  /** Runs all its benchmarks whenever it runs (the round-time estimate then counts all). */
  readonly runsWhole?: boolean;
  /**
   * `schedule: pairs`: the plan of one short process, with the harness's time flags benchgate
   * sets unless the suite's own settings do. Absent: the kind runs as configured.
   */
  shorten?(plan: Plan, harness: HarnessFacts): Shortened<Plan>;
  /**
   * One command, or several run in order (each output read right after its command), or groups
   * of commands each run against a server started for them.
   */
  step(plan: Plan, run: StepContext): Step;
}

/** A kind's step as a list: one command, or the several a kind runs in order. */
export function stepsOf(step: SuiteStep | readonly SuiteStep[]): readonly SuiteStep[];
export function stepsOf(step: AnyStep): readonly (SuiteStep | ServiceStep)[];
export function stepsOf(step: AnyStep): readonly (SuiteStep | ServiceStep)[] {
  return "argv" in step ? [step] : step;
}
