// What one suite kind of benchgate.yml declares: how its entry becomes a plan, how a plan is
// narrowed (`/rebench <filter>`, sequential rounds) and the command one side and round runs,
// with the ingest format that reads its output; and everything else the runner and the gate ask
// of a kind (what it builds and lists before the rounds, how pairs and shards cut it, its
// round-time guess, deterministic counts, its own budget rules), so that no code outside
// config/suites/ tells kinds apart by name. The runner (runner/run-suite.ts) executes the step;
// everything here is pure. A kind is one folder under config/suites/ holding this object,
// its tests and `schema.json`, the `<name>Suite` definition that scripts/gen-schema-types.ts
// puts into schemas/config.v1.schema.json; ./registry.ts lists the kinds.
import type { IngestKind } from "../../ingest/index.ts";
import type { Argv } from "../config-checks.ts";
import type { FileReader } from "../../ports/files.ts";
import type { RecordedProfile } from "../../ingest/gungraun/gungraun-profiles.ts";

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

/** One benchmark of a built bench executable, run once under Callgrind (SuiteKind.profile). */
export interface ProfileRun {
  /** The executable's arguments that run benchmark `id` alone, briefly. */
  args(id: string): Argv;
  /** Callgrind's `--toggle-collect`: the function whose calls alone are counted. */
  readonly collect: string;
  /**
   * The run iterates a fixed number of times, the same on both sides, so the two runs compare
   * whole; why, as the diff says it. Absent: the iterations are counted in the profile.
   */
  readonly wholeRun?: string;
}

/** One benchmark that is a command, run once under Callgrind as its suite ran it (SuiteKind.profileCommand). */
export interface ProfiledCommand {
  /** The program and its arguments, with the side's paths put in. */
  readonly argv: Argv;
  /**
   * The program is one side's file: copied, under this file name, to one path that both sides
   * run it from.
   */
  readonly stage?: string;
  /** The whole environment, the same bytes on both sides; absent: the side's, as the suite ran. */
  readonly exactEnv?: Readonly<Record<string, string>>;
  /** A shell command line: the processes it starts are profiled too, and their counts summed. */
  readonly children: boolean;
  /** Why the two runs are compared whole rather than per iteration (shown with the diff). */
  readonly wholeRun: string;
}

/** What every plan has, whatever its kind. */
export interface SuiteBase {
  readonly name: string;
  readonly timeoutMs: number;
}

/** A Cargo bench target as a plan has it (./cargo-bench-target.ts reads it from benchgate.yml). */
export interface CargoBenchTarget {
  readonly bench: string;
  /** cargo --manifest-path, relative to the repository root. */
  readonly manifestPath?: string;
  readonly package?: string;
  readonly features: readonly string[];
  readonly args: readonly string[];
}

/** One process's warm-up and measurement time and its sample count (a harness's time flags). */
export interface ProcessTime {
  readonly warmUpMs: number;
  readonly measurementMs: number;
  readonly samples: number;
}

/**
 * A kind whose suites run a Cargo bench target: the runner builds it once per side before any
 * round (`cargo bench --no-run`), so the rounds only run it and a build error is told apart
 * from a benchmark's.
 */
interface BenchBuild<Plan> {
  /** The bench target a suite builds and runs. */
  target(plan: Plan): CargoBenchTarget;
  /**
   * The build asks cargo to name the built executable (SidePaths.benchBinaries): "Where it
   * regressed" runs it under Callgrind (`profile`), and a kind's step may run it itself under
   * `schedule: pairs` (StepContext.binary), many short processes without cargo's own start.
   */
  readonly runsExecutable?: boolean;
  /**
   * The bench binary hands every benchmark to a runner program that must be exactly the
   * library's version: after the build the runner installs the version the side's Cargo.lock
   * names and puts it on PATH for the suite (SidePaths.suiteEnv).
   */
  readonly needsHarnessRunner?: boolean;
}

/** The harness crate a bench target links: what its versions tell `shorten`. */
interface LinkedHarness {
  /** Its name in Cargo.lock. */
  readonly crate: string;
  /** What both sides' versions of it (none found: empty) mean for its flags. */
  facts(versions: readonly string[]): HarnessFacts;
}

/** A limit a suite sets on itself, as a `budgets:` rule would write it (gate/suite-budgets.ts). */
export interface OwnBudgetRule {
  readonly rule: Record<string, unknown>;
  /** Which key of which suite sets it, for the rule's messages. */
  readonly origin: string;
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
interface HarnessFacts {
  /** Criterion before 0.4 on either side (or no version found): time flags in whole seconds. */
  readonly wholeSeconds: boolean;
}

/** A plan for short processes: the flags benchgate added, and those the user's own args set. */
interface Shortened<Plan> {
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
  /** Its bench target, built once per side before the rounds; absent: nothing to build. */
  readonly build?: BenchBuild<Plan>;
  /**
   * The command (of its built target) that prints one `<id>: benchmark` line per benchmark it
   * will run, so that shards and `schedule: pairs` can cut it before it runs
   * (runner/criterion-listing.ts). Absent: it does not list.
   */
  listArgv?(plan: Plan): Argv;
  /**
   * The ids it will run, known before it runs: its commands' names, or a listing kind's from
   * `listed` (its listing, undefined when it was not listed). Such a suite can be cut into units
   * of single benchmarks (runner/bench-units.ts). Absent: its ids are known from its output only.
   */
  idsBeforeRun?(plan: Plan, listed: readonly string[] | undefined): readonly string[];
  /**
   * What one process measures under `schedule: pairs` ("one <unit> per process"), of the ids
   * `idsBeforeRun` gives. Absent: one process runs the whole suite.
   */
  readonly pairUnit?: string;
  /** The harness crate whose versions (both sides' Cargo.lock) `shorten` needs to know. */
  readonly harness?: LinkedHarness;
  /**
   * `schedule: pairs`: how long one short process should measure, when benchgate set the times
   * (undefined when the suite's own args set them). A process far longer means the bench code
   * sets its own times, which win over the command line: the run says so.
   */
  shortProcessTime?(plan: Plan, harness: HarnessFacts): ProcessTime | undefined;
  /**
   * One side's time for one round, a first guess from its settings alone (docs/run.md,
   * "Progress"): `count` its ids known before it runs (undefined: not known), `pairs` whether
   * each unit runs in processes of its own. Undefined, or absent: not known before it runs.
   */
  estimateSideMs?(
    plan: Plan,
    count: number | undefined,
    pairs: boolean,
    harness: HarnessFacts,
  ): number | undefined;
  /**
   * Its benchmarks are deterministic counts: two rounds check that they repeat, they need no
   * noise estimate, and the suite may set its own thresholds for them (`threshold:`,
   * `noise-floor:`), which `thresholds` reads from its entry. Absent: timings.
   */
  readonly deterministicCounts?: {
    thresholds(raw: Raw, at: ConfigAt): OwnCountThresholds;
  };
  /**
   * "Where it regressed" (gate/where-step.ts): how its built executable runs one benchmark once
   * under Callgrind. Absent: the kind's regressions get no Where block yet.
   */
  readonly profile?: ProfileRun;
  /**
   * "Where it regressed": why the kind's regressions get none (with neither `profile`,
   * `profileCommand` nor `recordedProfile`), as the note under each says.
   */
  readonly noWhere?: string;
  /**
   * "Where it regressed": benchmark `id` as the command the suite runs for it, with one side's
   * paths, in that side's worktree; undefined when no command of the plan is named `id`.
   * Absent: the kind's benchmarks are not commands.
   */
  profileCommand?(
    plan: Plan,
    id: string,
    places: { readonly target: string; readonly worktree: string },
  ): ProfiledCommand | undefined;
  /**
   * "Where it regressed": its own runs already wrote one Callgrind file per benchmark; the one of
   * benchmark `id` in the output of the side and round `run` names (`dir` and `tag` as the step
   * had them), or undefined. Absent: none.
   */
  recordedProfile?(
    plan: Plan,
    run: { readonly dir: string; readonly tag: string },
    id: string,
    reader: FileReader,
  ): Promise<RecordedProfile | undefined>;
  /** Its output is a Criterion baseline tree, which critcmp tabulates beside the verdict. */
  readonly critcmpTable?: boolean;
  /**
   * Limits the suite sets on itself (benchgate.yml's entry, schema-valid), checked as budget
   * rules beside those under `budgets:`. Absent: none.
   */
  budgetRules?(raw: Raw): readonly OwnBudgetRule[];
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
