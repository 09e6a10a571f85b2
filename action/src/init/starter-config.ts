// The commented starter benchgate.yml that `benchgate init` writes: one suite per bench target
// (Criterion, or gungraun counting instructions), and everything else (hyperfine, build, golden outputs, budgets, the decision rule) as
// commented-out examples, so the file is valid as written (schemas/config.v1.schema.json) and
// shows what can be added. Pure.
import { InputError } from "../errors.ts";
import { BENCH_NAME } from "./cargo-benches.ts";
import { RELEASED_ACTION } from "./released-action.ts";
import { ACTION_PATH, type RunnerKind } from "./workflow-options.ts";
import { yamlScalar } from "./yaml-scalar.ts";

interface StarterOptions {
  /** Criterion bench target names (`cargo bench --bench NAME`). */
  readonly benches: readonly string[];
  /** gungraun / iai-callgrind bench target names: instruction counts under Valgrind. */
  readonly gungraun?: readonly string[];
  /** The workflows' shard count: the config then says each shard runs its own rounds. */
  readonly shards?: number;
  /** Where the workflows measure: on a GitHub-hosted runner the config says what that costs. */
  readonly runner?: RunnerKind;
}

/**
 * Where editors fetch the config's schema (the yaml-language-server modeline): the file in
 * benchgate's repository at the release this CLI was published with; a build from source knows
 * no release and names the default branch. The npm package does not ship schemas/, and the
 * schema's $id is a name, not an address that serves it.
 */
export function configSchemaUrl(): string {
  const repo = (RELEASED_ACTION?.action ?? ACTION_PATH).split("/").slice(0, 2).join("/");
  const ref = RELEASED_ACTION?.tag ?? "main";
  return `https://raw.githubusercontent.com/${repo}/${ref}/schemas/config.v1.schema.json`;
}

/**
 * The time budget init writes: the whole run, both builds included. A first build of a crate with
 * its dependencies takes a few minutes on a 2-core runner; the rest goes to rounds.
 */
const STARTER_TIME_BUDGET = "15m";

const MAX_SUITE_NAME = 64;

/** A suite name (schema: `^[a-z0-9][a-z0-9_-]{0,63}$`, also a folder name) for a target name. */
function suiteName(bench: string, taken: ReadonlySet<string>): string {
  const base =
    bench
      .toLowerCase()
      .replace(/^[_-]+/, "")
      .slice(0, MAX_SUITE_NAME) || "bench";
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const name = base.slice(0, MAX_SUITE_NAME - suffix.length) + suffix;
    if (!taken.has(name)) return name;
  }
}

const header = (): string[] => [
  `# yaml-language-server: $schema=${configSchemaUrl()}`,
  "# benchgate.yml: what benchgate benchmarks and how it decides. Written by `benchgate init`.",
  "#",
  "# benchgate reads this file from the BASE commit of every comparison, so a pull request cannot",
  "# loosen its own gate: a change here takes effect once it is merged. Paths are relative to the",
  "# repository root. Check a change with `benchgate validate benchgate.yml`; every key is",
  "# described in benchgate's docs/run.md and schemas/config.v1.schema.json.",
  "version: 1",
  "",
  "# How a round runs base and head. pairs: for each benchmark, its base process and its head",
  "# process one right after the other, each short and measuring that benchmark alone (benchgate",
  "# sets Criterion's --warm-up-time, --measurement-time and --sample-size; a suite's",
  "# process-time: changes them). On a shared machine many short, adjacent processes decide",
  "# sooner than a few long ones. suite: one long process per suite and side.",
  "schedule: pairs",
  "",
];

/** On a GitHub-hosted runner: what timings can and cannot decide there, and what can. */
const HOSTED_NOTE = [
  "# The workflows measure on a GitHub-hosted runner, a shared machine: a timing suite",
  "# (criterion, hyperfine) confirms only slowdowns of several percent or more there, and calls",
  "# smaller ones inconclusive (each comment says the smallest it could have seen). gungraun",
  "# suites count instructions, which the load does not move, and decide 1 % changes: prefer",
  "# them for the code you care about (benchgate's docs/instruction-counts.md).",
  "",
] as const;

/** The rounds: sequential within the time budget (with shards, each shard's own). */
function roundsBlock(shards: number): readonly string[] {
  return [
    "# Sequential rounds (base first in odd rounds, head first in even ones): every benchmark runs",
    "# min-rounds rounds (3), then only the benchmarks whose answer is still open run again, up",
    "# to max-rounds (15), as long as the next round fits in the time budget: the whole run,",
    "# both builds included.",
    ...(shards > 1
      ? ["# Each shard runs its own rounds within it; the report job decides over all shards."]
      : []),
    "rounds: auto",
    `time-budget: ${STARTER_TIME_BUDGET}`,
    "",
  ];
}

const HYPERFINE_NOTE =
  "A command-line program timed by hyperfine, one process per run (start-up included):";
const HYPERFINE_EXAMPLE = [
  "- name: cli",
  "  kind: hyperfine",
  "  warmup: 3",
  "  runs: 20",
  "  commands:",
  "    - name: help",
  '      command: "{target}/release/my-cli --help"',
] as const;

const OTHER_EXAMPLES = [
  "",
  "# Binaries that hyperfine suites and golden commands call, built once per side before the",
  "# first round ({target} is that side's CARGO_TARGET_DIR). argv lists, never shell strings:",
  "# build:",
  '#   - ["cargo", "build", "--release", "--bin", "my-cli"]',
  "",
  "# Golden outputs: each command's stdout and exit code must hash to its line in the checksums",
  "# file (sha256sum format). `benchgate golden update` writes it and the expected texts:",
  "# golden:",
  "#   checksums: baselines/checksums.sha256",
  "#   outputs: baselines/golden",
  "#   commands:",
  "#     - name: cli-help",
  '#       command: ["{target}/release/my-cli", "--help"]',
  "",
  "# Budgets: absolute limits on the head side, by benchmark-id glob. A rule that matches no",
  "# benchmark fails the gate, so a typo cannot switch a budget off:",
  "# budgets:",
  '#   - benchmark: "parse/*"',
  '#     median: "< 2ms"',
  "#     max-regression: 5%",
  "",
  "# The decision rule (benchgate's docs/statistics.md); these are the defaults:",
  "# statistics:",
  "#   fail-threshold: 3%",
  "#   noise-floor: 1%",
  "#   q: 0.05",
] as const;

/** The starter benchgate.yml text; throws InputError for a name no bench target can have. */
export function starterConfig(options: StarterOptions): string {
  const taken = new Set<string>();
  const suites: string[] = [];
  const nameFor = (bench: string): string => {
    if (!BENCH_NAME.test(bench))
      throw new InputError(
        `bench target ${JSON.stringify(bench)} is not a target name (letters, digits, _ and -)`,
      );
    const name = suiteName(bench, taken);
    taken.add(name);
    return name;
  };
  for (const bench of options.benches) {
    suites.push(
      `  - name: ${yamlScalar(nameFor(bench))}`,
      "    kind: criterion",
      `    bench: ${yamlScalar(bench)}`,
    );
  }
  const counted = options.gungraun ?? [];
  if (counted.length > 0)
    suites.push(
      "  # gungraun (or iai-callgrind) bench targets: instruction counts under Valgrind, exact on",
      "  # every run, so a 1 % change fails (benchgate's docs/instruction-counts.md). benchgate",
      "  # installs gungraun-runner of your Cargo.lock's version.",
    );
  for (const bench of counted) {
    suites.push(
      `  - name: ${yamlScalar(nameFor(bench))}`,
      "    kind: gungraun",
      `    bench: ${yamlScalar(bench)}`,
    );
  }
  const body =
    suites.length > 0
      ? [
          "suites:",
          "  # One suite per bench target, each benchmark in processes of its own: 0.2 s of warm-up",
          "  # and 0.5 s of measurement (`process-time: {warm-up: 200ms, measurement: 500ms,",
          "  # samples: 10}` changes them). Many short rounds, not long runs, make the verdict",
          "  # sound. Bench code that sets warm_up_time or measurement_time on a group overrides",
          "  # these and makes every process long: the run names such benchmarks. In a workspace,",
          "  # add `package: CRATE` (cargo bench -p CRATE).",
          ...suites,
          `  # ${HYPERFINE_NOTE}`,
          ...HYPERFINE_EXAMPLE.map((line) => `  # ${line}`),
        ]
      : [
          "# No bench target was found (a [[bench]] in Cargo.toml with harness = false).",
          "# benchgate needs at least one suite; `benchgate init --bench NAME` writes them:",
          "# suites:",
          "#   - name: micro",
          "#     kind: criterion",
          "#     bench: my_bench",
          `#   # ${HYPERFINE_NOTE}`,
          ...HYPERFINE_EXAMPLE.map((line) => `#   ${line}`),
        ];
  const rounds = roundsBlock(options.shards ?? 1);
  const hosted = options.runner === "github-hosted" ? HOSTED_NOTE : [];
  return `${[...header(), ...hosted, ...rounds, ...body, ...OTHER_EXAMPLES].join("\n")}\n`;
}
