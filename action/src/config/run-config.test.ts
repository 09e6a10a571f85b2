import { describe, expect, it } from "vitest";
import type { BenchgateConfig } from "../schemas/config.gen.ts";
import {
  DEFAULT_ROUNDS,
  DEFAULT_SEQUENTIAL,
  DEFAULT_TIMEOUTS,
  parseDuration,
  resolveRunConfig,
  type ResolveOptions,
  type RunConfig,
} from "./run-config.ts";
import { validateConfig } from "../schemas/validate-document.ts";
import { errorOf } from "../../test/support/input-error.ts";

const SOURCE = "benchgate.yml";
const NEED = { needSuites: true } as const;

function doc(extra: Partial<BenchgateConfig> = {}): BenchgateConfig {
  return {
    version: 1,
    suites: [{ name: "micro", kind: "criterion", bench: "demo" }],
    ...extra,
  };
}

const resolve = (d: BenchgateConfig, options: ResolveOptions = NEED) =>
  resolveRunConfig(d, SOURCE, options);

describe("resolveRunConfig: defaults", () => {
  it("5 rounds, the default timeouts, empty lists, no golden", () => {
    const config = resolve(doc());
    expect(DEFAULT_ROUNDS).toBe(5);
    expect(config.rounds).toBe(5);
    expect(config.source).toBe(SOURCE);
    expect(config.buildTimeoutMs).toBe(DEFAULT_TIMEOUTS.build);
    expect(DEFAULT_TIMEOUTS).toEqual({ build: 3_600_000, suite: 1_800_000, golden: 30_000 });
    expect(config.build).toEqual([]);
    expect(config.golden).toBeUndefined();
    expect(config.suites).toEqual([
      {
        kind: "criterion",
        name: "micro",
        timeoutMs: DEFAULT_TIMEOUTS.suite,
        bench: "demo",
        features: [],
        args: [],
      },
    ]);
    expect("filter" in (config.suites[0] ?? {})).toBe(false);
    expect("package" in (config.suites[0] ?? {})).toBe(false);
  });

  it("rounds: the option wins over the file, the file over the default", () => {
    expect(resolve(doc({ rounds: 7 })).rounds).toBe(7);
    expect(resolve(doc({ rounds: 7 }), { needSuites: true, rounds: 3 }).rounds).toBe(3);
    expect(resolve(doc(), { needSuites: true, rounds: 1 }).rounds).toBe(1);
  });

  it("timeouts: per suite, then timeouts:, then the default; build steps share the build timeout", () => {
    const config = resolve(
      doc({
        timeouts: { build: "10m", suite: "90s" },
        build: [["cargo", "build", "--release"]],
        suites: [
          { name: "a", kind: "criterion", bench: "demo" },
          { name: "b", kind: "criterion", bench: "demo", timeout: "500ms" },
        ],
      }),
    );
    expect(config.buildTimeoutMs).toBe(600_000);
    expect(config.build).toEqual([
      { command: ["cargo", "build", "--release"], timeoutMs: 600_000 },
    ]);
    expect(config.suites.map((s) => s.timeoutMs)).toEqual([90_000, 500]);
  });

  it("golden command timeouts: command, then golden.timeout, then timeouts.golden, then 30 s", () => {
    const golden = (timeout?: string) => ({
      checksums: "baselines/checksums.sha256",
      ...(timeout === undefined ? {} : { timeout }),
      commands: [
        { name: "own", command: ["demo-cli"] as [string], timeout: "2s" },
        { name: "inherited", command: ["demo-cli", "--help"] as [string, string] },
      ] as [
        { name: string; command: [string]; timeout: string },
        { name: string; command: [string, string] },
      ],
    });
    const times = (c: RunConfig) => c.golden?.commands.map((g) => g.timeoutMs);
    expect(times(resolve(doc({ golden: golden("1m") })))).toEqual([2_000, 60_000]);
    expect(times(resolve(doc({ golden: golden(), timeouts: { golden: "5s" } })))).toEqual([
      2_000, 5_000,
    ]);
    expect(times(resolve(doc({ golden: golden() })))).toEqual([2_000, DEFAULT_TIMEOUTS.golden]);
  });
});

describe("parseDuration", () => {
  it.each([
    ["90s", 90_000],
    ["10m", 600_000],
    ["500ms", 500],
    ["1.5h", 5_400_000],
    [" 2 s ", 2_000],
    ["0.5s", 500],
  ])("%j is %d ms", (raw, ms) => {
    expect(parseDuration(raw, "/timeouts/suite", SOURCE)).toBe(ms);
  });

  it.each(["10", "fast", "", "5 min", "1d", "-5s", "0s", "0.4ms", "8h0m", "200h", "1e3s"])(
    "%j is refused, naming the key and the file",
    (raw) => {
      const error = errorOf(() => parseDuration(raw, "/suites/2/timeout", SOURCE));
      expect(error.jsonPath).toBe("/suites/2/timeout");
      expect(error.source).toBe(SOURCE);
      expect(error.describe()).toContain(`${SOURCE}: /suites/2/timeout: expected a duration`);
      expect(error.message).toContain(JSON.stringify(raw));
    },
  );

  it("errors from the config name the key they come from", () => {
    expect(errorOf(() => resolve(doc({ timeouts: { suite: "soon" } }))).jsonPath).toBe(
      "/timeouts/suite",
    );
    expect(errorOf(() => resolve(doc({ timeouts: { build: "1d" } }))).jsonPath).toBe(
      "/timeouts/build",
    );
    const suites: BenchgateConfig["suites"] = [
      { name: "a", kind: "criterion", bench: "demo" },
      { name: "b", kind: "criterion", bench: "demo", timeout: "forever" },
    ];
    expect(errorOf(() => resolve(doc({ suites }))).jsonPath).toBe("/suites/1/timeout");
  });
});

describe("resolveRunConfig: what the schema cannot say", () => {
  it("duplicate suite names: the second one is named, with where the first is", () => {
    const error = errorOf(() =>
      resolve(
        doc({
          suites: [
            { name: "micro", kind: "criterion", bench: "demo" },
            { name: "micro", kind: "hyperfine", commands: [{ name: "x", command: "true" }] },
          ],
        }),
      ),
    );
    expect(error.jsonPath).toBe("/suites/1/name");
    expect(error.source).toBe(SOURCE);
    expect(error.message).toContain('"micro"');
    expect(error.message).toContain("/suites/0/name");
  });

  it("duplicate hyperfine command and golden command names are named too", () => {
    const hyperfine = errorOf(() =>
      resolve(
        doc({
          suites: [
            {
              name: "cli",
              kind: "hyperfine",
              commands: [
                { name: "help", command: "a" },
                { name: "help", command: "b" },
              ],
            },
          ],
        }),
      ),
    );
    expect(hyperfine.jsonPath).toBe("/suites/0/commands/1/name");
    const golden = errorOf(() =>
      resolve(
        doc({
          golden: {
            checksums: "sums",
            commands: [
              { name: "x", command: ["a"] },
              { name: "x", command: ["b"] },
            ],
          },
        }),
      ),
    );
    expect(golden.jsonPath).toBe("/golden/commands/1/name");
  });

  it.each([
    ["../outside.sha256", "/golden/checksums"],
    ["baselines/../../outside", "/golden/checksums"],
    ["/etc/passwd", "/golden/checksums"],
    ["baselines\\..\\..\\x", "/golden/checksums"],
  ])("golden checksums %j leaves the repository: refused", (checksums, key) => {
    const error = errorOf(() =>
      resolve(doc({ golden: { checksums, commands: [{ name: "x", command: ["a"] }] } })),
    );
    expect(error.jsonPath).toBe(key);
    expect(error.message).toContain("inside the repository");
  });

  it("golden outputs with '..' is refused; '..' inside a name is fine", () => {
    const golden = (outputs: string) => ({
      checksums: "baselines/sums..sha256",
      outputs,
      commands: [{ name: "x", command: ["a"] }] as [{ name: string; command: [string] }],
    });
    expect(errorOf(() => resolve(doc({ golden: golden("a/../..") }))).jsonPath).toBe(
      "/golden/outputs",
    );
    expect(resolve(doc({ golden: golden("baselines/golden") })).golden).toEqual({
      checksums: "baselines/sums..sha256",
      outputs: "baselines/golden",
      commands: [{ name: "x", command: ["a"], timeoutMs: DEFAULT_TIMEOUTS.golden }],
    });
  });

  it("a Criterion suite's manifest-path is kept when it stays inside the repository", () => {
    const suite = (path: string) =>
      doc({ suites: [{ name: "m", kind: "criterion", bench: "demo", "manifest-path": path }] });
    expect(resolve(suite("examples/demo-crate/Cargo.toml")).suites[0]).toMatchObject({
      manifestPath: "examples/demo-crate/Cargo.toml",
    });
    expect(errorOf(() => resolve(suite("../other/Cargo.toml"))).jsonPath).toBe(
      "/suites/0/manifest-path",
    );
  });

  it("a Criterion filter starting with '-' is refused (it would be read as an option)", () => {
    const error = errorOf(() =>
      resolve(doc({ suites: [{ name: "m", kind: "criterion", bench: "demo", filter: "--list" }] })),
    );
    expect(error.jsonPath).toBe("/suites/0/filter");
    expect(error.message).toContain("'-'");
    const ok = resolve(
      doc({ suites: [{ name: "m", kind: "criterion", bench: "d", filter: "a-b" }] }),
    );
    expect(ok.suites[0]).toMatchObject({ filter: "a-b" });
  });

  it("an empty program in an argv is refused, naming the item", () => {
    expect(errorOf(() => resolve(doc({ build: [["cargo"], [" "]] }))).jsonPath).toBe("/build/1");
    const custom = errorOf(() =>
      resolve(doc({ suites: [{ name: "c", kind: "custom", command: [""], output: "s.json" }] })),
    );
    expect(custom.jsonPath).toBe("/suites/0/command");
  });

  it("run needs suites; golden (needSuites false) does not", () => {
    const noSuites: BenchgateConfig = { version: 1, build: [["make"]] };
    const error = errorOf(() => resolve(noSuites));
    expect(error.jsonPath).toBe("/suites");
    expect(error.message).toContain("at least one suite");
    const config = resolve(noSuites, { needSuites: false });
    expect(config.suites).toEqual([]);
  });
});

describe("resolveRunConfig: the result", () => {
  const full = (): RunConfig =>
    resolve(
      doc({
        build: [["cargo", "build"]],
        suites: [
          { name: "micro", kind: "criterion", bench: "demo", args: ["--noplot"], features: ["f"] },
          {
            name: "cli",
            kind: "hyperfine",
            commands: [{ name: "help", command: "x --help" }],
            args: ["-N"],
          },
        ],
        golden: { checksums: "sums", commands: [{ name: "x", command: ["a", "b"] }] },
      }),
    );

  it("is deeply frozen", () => {
    const config = full();
    for (const value of [
      config,
      config.build,
      config.build[0],
      config.build[0]?.command,
      config.suites,
      config.suites[0],
      (config.suites[0] as { args: readonly string[] }).args,
      (config.suites[1] as { commands: readonly object[] }).commands[0],
      config.golden,
      config.golden?.commands[0]?.command,
    ])
      expect(Object.isFrozen(value)).toBe(true);
    expect(() => {
      (config as { rounds: number }).rounds = 1;
    }).toThrow(TypeError);
    expect(() => {
      (config.suites as unknown as unknown[]).push({});
    }).toThrow(TypeError);
  });
});

describe("resolveRunConfig: rounds: auto (sequential rounds)", () => {
  it("auto: rounds is max-rounds, sequential holds min-rounds; defaults 3 and 15, no budget", () => {
    expect(DEFAULT_SEQUENTIAL).toEqual({ minRounds: 3, maxRounds: 15 });
    const config = resolve(doc({ rounds: "auto" }));
    expect(config.rounds).toBe(15);
    expect(config.sequential).toEqual({ minRounds: 3 });
    expect(Object.isFrozen(config.sequential)).toBe(true);
  });

  it("min-rounds, max-rounds and time-budget from the file", () => {
    const config = resolve(
      doc({ rounds: "auto", "min-rounds": 4, "max-rounds": 8, "time-budget": "20m" }),
    );
    expect(config.rounds).toBe(8);
    expect(config.sequential).toEqual({ minRounds: 4, timeBudgetMs: 1_200_000 });
    // min = max is a fixed number of rounds that still says it was sequential.
    expect(resolve(doc({ rounds: "auto", "min-rounds": 5, "max-rounds": 5 })).sequential).toEqual({
      minRounds: 5,
    });
  });

  it("a fixed count has no sequential block", () => {
    expect(resolve(doc({ rounds: 7 })).sequential).toBeUndefined();
    expect("sequential" in resolve(doc())).toBe(false);
  });

  it.each(["min-rounds", "max-rounds", "time-budget"] as const)(
    "%s without rounds: auto is refused, naming the key",
    (key) => {
      const value = key === "time-budget" ? "10m" : 4;
      for (const rounds of [5, undefined]) {
        const error = errorOf(() =>
          resolve(doc({ ...(rounds === undefined ? {} : { rounds }), [key]: value })),
        );
        expect(error.source).toBe(SOURCE);
        expect(error.jsonPath).toBe(`/${key}`);
        expect(error.describe()).toContain(`${SOURCE}: /${key}: only used with rounds: auto`);
      }
      // Also when a flag would make the run auto: the file itself is wrong.
      expect(
        errorOf(() => resolve(doc({ rounds: 5, [key]: value }), { ...NEED, rounds: "auto" }))
          .jsonPath,
      ).toBe(`/${key}`);
    },
  );

  it("min-rounds above max-rounds is refused, naming the key that was written", () => {
    const both = errorOf(() => resolve(doc({ rounds: "auto", "min-rounds": 9, "max-rounds": 8 })));
    expect(both.jsonPath).toBe("/min-rounds");
    expect(both.message).toBe("min-rounds 9 is more than max-rounds 8");
    const onlyMax = errorOf(() => resolve(doc({ rounds: "auto", "max-rounds": 2 })));
    expect(onlyMax.jsonPath).toBe("/max-rounds");
    expect(onlyMax.message).toBe("min-rounds 3 (the default) is more than max-rounds 2");
    const onlyMin = errorOf(() => resolve(doc({ rounds: "auto", "min-rounds": 20 })));
    expect(onlyMin.jsonPath).toBe("/min-rounds");
    expect(onlyMin.message).toContain("max-rounds 15 (the default)");
  });

  it("a bad time-budget names /time-budget", () => {
    const error = errorOf(() => resolve(doc({ rounds: "auto", "time-budget": "soon" })));
    expect(error.jsonPath).toBe("/time-budget");
    expect(error.message).toContain("expected a duration");
  });

  it('the schema: rounds is an integer or "auto"; min/max 2–100', () => {
    const check = (extra: Record<string, unknown>) => () =>
      validateConfig({ version: 1, ...extra }, SOURCE);
    expect(check({ rounds: "auto", "min-rounds": 2, "max-rounds": 100 })).not.toThrow();
    expect(check({ rounds: 100 })).not.toThrow();
    for (const [extra, key] of [
      [{ rounds: "Auto" }, "/rounds"],
      [{ rounds: 0 }, "/rounds"],
      [{ rounds: "5" }, "/rounds"],
      [{ rounds: "auto", "min-rounds": 1 }, "/min-rounds"],
      [{ rounds: "auto", "max-rounds": 101 }, "/max-rounds"],
      [{ rounds: "auto", "time-budget": "20 minutes" }, "/time-budget"],
    ] as const)
      expect(errorOf(check(extra)).jsonPath, JSON.stringify(extra)).toBe(key);
  });
});

describe("resolveRunConfig: the command line's rounds over the file's", () => {
  const auto = doc({ rounds: "auto", "min-rounds": 4, "max-rounds": 8, "time-budget": "20m" });

  it("--rounds N turns a config's auto into N fixed rounds", () => {
    const config = resolve(auto, { ...NEED, rounds: 7 });
    expect(config.rounds).toBe(7);
    expect(config.sequential).toBeUndefined();
  });

  it("--rounds auto turns a fixed config into sequential rounds with the defaults", () => {
    const config = resolve(doc({ rounds: 5 }), { ...NEED, rounds: "auto" });
    expect(config.rounds).toBe(DEFAULT_SEQUENTIAL.maxRounds);
    expect(config.sequential).toEqual({ minRounds: DEFAULT_SEQUENTIAL.minRounds });
  });

  it("--rounds auto on an auto config keeps the file's design", () => {
    const config = resolve(auto, { ...NEED, rounds: "auto" });
    expect(config.rounds).toBe(8);
    expect(config.sequential).toEqual({ minRounds: 4, timeBudgetMs: 1_200_000 });
  });

  it("--min-rounds, --max-rounds and --time-budget win over the file", () => {
    const config = resolve(auto, {
      ...NEED,
      minRounds: 5,
      maxRounds: 12,
      timeBudgetMs: 60_000,
    });
    expect(config.rounds).toBe(12);
    expect(config.sequential).toEqual({ minRounds: 5, timeBudgetMs: 60_000 });
    const withAuto = resolve(doc(), { ...NEED, rounds: "auto", maxRounds: 6 });
    expect(withAuto.rounds).toBe(6);
    expect(withAuto.sequential).toEqual({ minRounds: 3 });
  });

  it.each([
    ["--min-rounds", { minRounds: 3 }],
    ["--max-rounds", { maxRounds: 9 }],
    ["--time-budget", { timeBudgetMs: 1000 }],
  ] as const)("%s without auto is refused, naming the flag", (flag, extra) => {
    for (const [d, rounds] of [
      [doc(), undefined],
      [doc({ rounds: 4 }), undefined],
      [auto, 6],
    ] as const) {
      const error = errorOf(() =>
        resolve(d, { ...NEED, ...extra, ...(rounds === undefined ? {} : { rounds }) }),
      );
      expect(error.source).toBeUndefined();
      expect(error.message).toMatch(new RegExp(`^${flag} is only used with rounds: auto`));
    }
  });

  it("min above max across flag and file names the flag", () => {
    const min = errorOf(() => resolve(auto, { ...NEED, minRounds: 9 }));
    expect(min.source).toBeUndefined();
    expect(min.message).toBe("--min-rounds: min-rounds 9 (--min-rounds) is more than max-rounds 8");
    const max = errorOf(() => resolve(auto, { ...NEED, maxRounds: 3 }));
    expect(max.message).toBe("--max-rounds: min-rounds 4 is more than max-rounds 3 (--max-rounds)");
  });
});

describe("resolveRunConfig: schedule and process-time", () => {
  it("schedules pairs by default; benchgate.yml's schedule: and then --schedule win", () => {
    expect(resolve(doc()).schedule).toBe("pairs");
    expect(resolve(doc({ schedule: "suite" })).schedule).toBe("suite");
    expect(resolve(doc({ schedule: "suite" }), { ...NEED, schedule: "pairs" }).schedule).toBe(
      "pairs",
    );
    expect(errorOf(() => validateConfig({ version: 1, schedule: "both" }, SOURCE)).jsonPath).toBe(
      "/schedule",
    );
  });

  it("a Criterion suite's process-time: as written; the rest stays the defaults", () => {
    const suites: BenchgateConfig["suites"] = [
      {
        name: "micro",
        kind: "criterion",
        bench: "demo",
        "process-time": { "warm-up": "100ms", samples: 20 },
      },
    ];
    expect(resolve(doc({ suites })).suites[0]).toMatchObject({
      processTime: { warmUpMs: 100, samples: 20 },
    });
    const bad = [{ ...suites[0], "process-time": { measurement: "0ms" } }] as typeof suites;
    expect(errorOf(() => resolve(doc({ suites: bad }))).jsonPath).toBe(
      "/suites/0/process-time/measurement",
    );
    for (const samples of [9, 1.5]) {
      const suite = { ...suites[0], "process-time": { samples } };
      expect(errorOf(() => validateConfig({ version: 1, suites: [suite] }, SOURCE)).jsonPath).toBe(
        "/suites/0/process-time/samples",
      );
    }
  });
});
