// benchgate.yml for `benchgate run` and `benchgate golden`: read once into a frozen, fully
// defaulted config. The schema (schemas/config.v1.schema.json) has already checked the shapes;
// this adds what a schema cannot say well (unique names, paths that stay inside the repository,
// durations in milliseconds) and every error names the key, e.g. `/suites/1/name`.
import { InputError } from "../errors.ts";
import type {
  BenchgateConfig,
  CriterionSuite,
  CustomSuite,
  HyperfineSuite,
} from "../schemas/config.gen.ts";

export const DEFAULT_ROUNDS = 5;
export const DEFAULT_TIMEOUTS = Object.freeze({
  build: 60 * 60_000,
  suite: 30 * 60_000,
  golden: 30_000,
});

export type Argv = readonly [string, ...string[]];

interface SuiteBase {
  readonly name: string;
  readonly timeoutMs: number;
}
export interface CriterionSuitePlan extends SuiteBase {
  readonly kind: "criterion";
  readonly bench: string;
  /** cargo --manifest-path, relative to the repository root. */
  readonly manifestPath?: string;
  readonly package?: string;
  readonly features: readonly string[];
  readonly filter?: string;
  readonly args: readonly string[];
}
export interface HyperfineSuitePlan extends SuiteBase {
  readonly kind: "hyperfine";
  readonly commands: readonly { readonly name: string; readonly command: string }[];
  readonly warmup?: number;
  readonly runs?: number;
  readonly prepare?: string;
  readonly args: readonly string[];
}
export interface CustomSuitePlan extends SuiteBase {
  readonly kind: "custom";
  readonly command: Argv;
  readonly output: string;
}
export type SuitePlan = CriterionSuitePlan | HyperfineSuitePlan | CustomSuitePlan;

export interface GoldenPlan {
  readonly checksums: string;
  readonly outputs?: string;
  readonly commands: readonly {
    readonly name: string;
    readonly command: Argv;
    readonly timeoutMs: number;
  }[];
}

export interface RunConfig {
  readonly source: string;
  readonly rounds: number;
  readonly build: readonly { readonly command: Argv; readonly timeoutMs: number }[];
  /** For the build steps benchgate adds itself (`cargo bench --no-run`). */
  readonly buildTimeoutMs: number;
  readonly suites: readonly SuitePlan[];
  readonly golden?: GoldenPlan;
  /** The validated document, for the statistics and budgets blocks. */
  readonly document: BenchgateConfig;
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** "90s", "10m", "1.5h", "500ms" → milliseconds. */
export function parseDuration(raw: string, key: string, source: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(raw);
  const ms = match === null ? NaN : Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (!Number.isFinite(ms) || ms < 1 || ms > 7 * 24 * 3_600_000)
    throw new InputError(
      `expected a duration such as "90s" or "10m" (up to 7 days), got ${JSON.stringify(raw)}`,
      { source, jsonPath: key },
    );
  return Math.round(ms);
}

/** Paths come from a reviewed file but still must not leave the repository. */
function checkRelativePath(raw: string, key: string, source: string): string {
  const parts = raw.split(/[/\\]/);
  if (raw.startsWith("/") || raw.startsWith("\\") || parts.includes("..") || raw.includes("\u0000"))
    throw new InputError(
      `${JSON.stringify(raw)} must be a path inside the repository (relative, no ".." component)`,
      { source, jsonPath: key },
    );
  return raw;
}

function argv(raw: readonly string[], key: string, source: string): Argv {
  const [program, ...rest] = raw;
  if (program === undefined || program.trim() === "")
    throw new InputError("the program (first item) is empty", { source, jsonPath: key });
  return [program, ...rest];
}

function unique(
  names: readonly string[],
  key: (i: number) => string,
  what: string,
  source: string,
): void {
  const seen = new Map<string, number>();
  names.forEach((name, i) => {
    const first = seen.get(name);
    if (first !== undefined)
      throw new InputError(`${what} ${JSON.stringify(name)} is also used at ${key(first)}`, {
        source,
        jsonPath: key(i),
      });
    seen.set(name, i);
  });
}

function suitePlan(
  raw: CriterionSuite | HyperfineSuite | CustomSuite,
  i: number,
  defaultTimeout: number,
  source: string,
): SuitePlan {
  const key = `/suites/${i}`;
  const timeoutMs =
    raw.timeout === undefined
      ? defaultTimeout
      : parseDuration(raw.timeout, `${key}/timeout`, source);
  switch (raw.kind) {
    case "criterion":
      if (raw.filter?.startsWith("-") === true)
        throw new InputError(
          "the filter must not start with '-' (Criterion would read it as an option)",
          { source, jsonPath: `${key}/filter` },
        );
      return {
        kind: "criterion",
        name: raw.name,
        timeoutMs,
        bench: raw.bench,
        ...(raw["manifest-path"] === undefined
          ? {}
          : {
              manifestPath: checkRelativePath(raw["manifest-path"], `${key}/manifest-path`, source),
            }),
        ...(raw.package === undefined ? {} : { package: raw.package }),
        features: [...(raw.features ?? [])],
        ...(raw.filter === undefined ? {} : { filter: raw.filter }),
        args: [...(raw.args ?? [])],
      };
    case "hyperfine": {
      unique(
        raw.commands.map((c) => c.name),
        (j) => `${key}/commands/${j}/name`,
        "hyperfine command name",
        source,
      );
      return {
        kind: "hyperfine",
        name: raw.name,
        timeoutMs,
        commands: raw.commands.map((c) => ({ name: c.name, command: c.command })),
        ...(raw.warmup === undefined ? {} : { warmup: raw.warmup }),
        ...(raw.runs === undefined ? {} : { runs: raw.runs }),
        ...(raw.prepare === undefined ? {} : { prepare: raw.prepare }),
        args: [...(raw.args ?? [])],
      };
    }
    case "custom":
      return {
        kind: "custom",
        name: raw.name,
        timeoutMs,
        command: argv(raw.command, `${key}/command`, source),
        output: raw.output,
      };
  }
}

/**
 * The run configuration from a schema-valid document. `needSuites` is false for `golden`,
 * which only needs the build and golden blocks.
 */
export function resolveRunConfig(
  document: BenchgateConfig,
  source: string,
  options: { needSuites: boolean; rounds?: number },
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
      "no suites: `benchgate run` needs at least one suite (criterion, hyperfine or custom)",
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
  const rounds = options.rounds ?? document.rounds ?? DEFAULT_ROUNDS;
  return deepFreeze({
    source,
    rounds,
    buildTimeoutMs: buildTimeout,
    build: (document.build ?? []).map((b, i) => ({
      command: argv(b, `/build/${i}`, source),
      timeoutMs: buildTimeout,
    })),
    suites,
    ...(golden === undefined ? {} : { golden }),
    // A copy: freezing must not reach into the caller's object.
    document: structuredClone(document),
  });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
