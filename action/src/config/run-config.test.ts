import { describe, expect, it } from "vitest";
import type { BenchgateConfig } from "../schemas/config.gen.ts";
import {
  DEFAULT_ROUNDS,
  DEFAULT_TIMEOUTS,
  parseDuration,
  resolveRunConfig,
  type RunConfig,
} from "./run-config.ts";
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

const resolve = (d: BenchgateConfig, options: { needSuites: boolean; rounds?: number } = NEED) =>
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
      config.document,
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
