import { cargoBenchBuildArgv } from "../config/suites/cargo-bench-target.ts";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { expand, expandArgv, shellQuote } from "../config/placeholders.ts";
import {
  baselineName,
  criterionRunArgv,
  type CriterionSuitePlan,
} from "../config/suites/criterion/criterion-suite.ts";
import { customArgv, type CustomSuitePlan } from "../config/suites/custom/custom-suite.ts";
import {
  hyperfineArgv,
  type HyperfineSuitePlan,
} from "../config/suites/hyperfine/hyperfine-suite.ts";
import { roundOrder } from "./suite-commands.ts";

const criterion = (extra: Partial<CriterionSuitePlan> = {}): CriterionSuitePlan => ({
  kind: "criterion",
  name: "micro",
  timeoutMs: 60_000,
  bench: "demo",
  features: [],
  args: [],
  ...extra,
});

const hyperfine = (extra: Partial<HyperfineSuitePlan> = {}): HyperfineSuitePlan => ({
  kind: "hyperfine",
  name: "cli",
  timeoutMs: 60_000,
  commands: [{ name: "help", command: "{target}/release/demo-cli --help" }],
  args: [],
  ...extra,
});

/** A path with everything a shell would trip over: spaces, both quotes, $ and a backslash. */
const NASTY = `/tmp/my "target" dir/it's $HOME\\x`;

/** What `sh` makes of each word: one spawn for all of them, NUL-separated. */
function throughShell(words: readonly string[]): string[] {
  const script = `printf '%s\\0' ${words.join(" ")}`;
  const result = spawnSync("sh", ["-c", script], { encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split("\0").slice(0, -1);
}

describe("roundOrder", () => {
  it("runs base first in odd rounds and head first in even ones", () => {
    expect(roundOrder(1)).toEqual(["base", "head"]);
    expect(roundOrder(2)).toEqual(["head", "base"]);
    expect(roundOrder(3)).toEqual(["base", "head"]);
    expect(roundOrder(100)).toEqual(["head", "base"]);
  });

  it("alternates, and every round runs both sides exactly once", () => {
    const firsts = [1, 2, 3, 4, 5, 6].map((r) => roundOrder(r)[0]);
    expect(firsts).toEqual(["base", "head", "base", "head", "base", "head"]);
    for (let r = 1; r <= 10; r++) expect([...roundOrder(r)].sort()).toEqual(["base", "head"]);
  });
});

describe("Criterion command lines", () => {
  it("names baselines by side and round", () => {
    expect(baselineName("base", 2)).toBe("base-2");
    expect(baselineName("head", 13)).toBe("head-13");
  });

  it("builds the bench target without running it", () => {
    expect(cargoBenchBuildArgv(criterion())).toEqual([
      "cargo",
      "bench",
      "--no-run",
      "--bench",
      "demo",
    ]);
    expect(
      cargoBenchBuildArgv(criterion({ package: "core", features: ["simd", "serde/std"] })),
    ).toEqual([
      "cargo",
      "bench",
      "--no-run",
      "--bench",
      "demo",
      "--package",
      "core",
      "--features",
      "simd,serde/std",
    ]);
    expect(
      cargoBenchBuildArgv(criterion({ manifestPath: "examples/demo-crate/Cargo.toml" })),
    ).toEqual([
      "cargo",
      "bench",
      "--no-run",
      "--bench",
      "demo",
      "--manifest-path",
      "examples/demo-crate/Cargo.toml",
    ]);
  });

  it("runs with the user's args, then --noplot and --save-baseline SIDE-ROUND, the filter last", () => {
    const suite = criterion({
      args: ["--warm-up-time", "0.05", "--measurement-time", "0.2"],
      filter: "^(normalize|checksum/fnv1a)$",
    });
    expect(criterionRunArgv(suite, "base", 2)).toEqual([
      "cargo",
      "bench",
      "--bench",
      "demo",
      "--",
      "--warm-up-time",
      "0.05",
      "--measurement-time",
      "0.2",
      "--noplot",
      "--save-baseline",
      "base-2",
      "^(normalize|checksum/fnv1a)$",
    ]);
  });

  it("has no positional argument without a filter, and passes package and features to cargo", () => {
    const argv = criterionRunArgv(criterion({ package: "core", features: ["a", "b"] }), "head", 1);
    expect(argv).toEqual([
      "cargo",
      "bench",
      "--bench",
      "demo",
      "--package",
      "core",
      "--features",
      "a,b",
      "--",
      "--noplot",
      "--save-baseline",
      "head-1",
    ]);
  });
});

describe("placeholders", () => {
  const places = { target: "/cache/target-head", worktree: "/tmp/wt/head", out: "/out/raw/x" };

  it("replaces {target}, {worktree} and {out}, every occurrence", () => {
    expect(expand("{target}/release/x", places)).toBe("/cache/target-head/release/x");
    expect(expand("--dir={worktree}", places)).toBe("--dir=/tmp/wt/head");
    expect(expand("{out}/result.json", places)).toBe("/out/raw/x/result.json");
    expect(expand("{target}:{target}", places)).toBe("/cache/target-head:/cache/target-head");
  });

  it("leaves unknown {x}, near misses and an {out} without a value alone", () => {
    expect(expand("{x} {TARGET} { target } {target", places)).toBe(
      "{x} {TARGET} { target } {target",
    );
    expect(expand("{{target}}", places)).toBe("{/cache/target-head}");
    expect(expand("{out}/file", { target: "/t", worktree: "/w" })).toBe("{out}/file");
  });

  it("quotes only the substituted value when asked", () => {
    const values = { target: NASTY, worktree: "/w" };
    expect(expand("{target}/bin --flag", values, shellQuote)).toBe(
      `${shellQuote(NASTY)}/bin --flag`,
    );
  });

  it("expands every argv item, the program included, without quoting (no shell)", () => {
    const values = { target: "/t t", worktree: "/w" };
    expect(
      expandArgv(["{target}/release/demo-cli", "--in", "{worktree}/x y", "{z}"], values),
    ).toEqual(["/t t/release/demo-cli", "--in", "/w/x y", "{z}"]);
  });

  it("custom suites get {out} unquoted, as one argument", () => {
    const suite: CustomSuitePlan = {
      kind: "custom",
      name: "harness",
      timeoutMs: 1000,
      command: ["{target}/release/harness", "--out", "{out}"],
      output: "summary.json",
    };
    expect(customArgv(suite, { target: "/t", worktree: "/w", out: "/o/a b" })).toEqual([
      "/t/release/harness",
      "--out",
      "/o/a b",
    ]);
  });
});

describe("shellQuote", () => {
  it("leaves plain paths alone and single-quotes everything else", () => {
    expect(shellQuote("/usr/local/bin/demo-cli")).toBe("/usr/local/bin/demo-cli");
    expect(shellQuote("a-b_c.d:e@f%g+h=i,j")).toBe("a-b_c.d:e@f%g+h=i,j");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("$HOME")).toBe("'$HOME'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote("")).toBe("''");
  });

  it("round-trips through sh for awkward paths", () => {
    const words = [
      NASTY,
      "",
      "a b",
      "it's",
      "'",
      "''",
      "$(rm -rf /)",
      "`id`",
      "a\nb",
      "*",
      "~",
      "-n",
    ];
    expect(throughShell(words.map(shellQuote))).toEqual(words);
  });

  it("round-trips through sh for arbitrary strings (property)", () => {
    const words = fc.sample(
      fc.string({ unit: "grapheme", maxLength: 30 }).filter((s) => !s.includes("\0")),
      { numRuns: 200, seed: 7 },
    );
    expect(throughShell(words.map(shellQuote))).toEqual(words);
  });
});

describe("hyperfine command lines", () => {
  it("exports JSON, passes warmup, runs, args, and names each command", () => {
    const suite = hyperfine({
      warmup: 1,
      runs: 5,
      args: ["-N"],
      commands: [
        { name: "help", command: "{target}/release/demo-cli --help" },
        { name: "stats", command: "{target}/release/demo-cli stats --count 200000" },
      ],
    });
    expect(
      hyperfineArgv(suite, "/out/raw/cli/base-1.json", { target: "/t", worktree: "/w" }),
    ).toEqual([
      "hyperfine",
      "--style",
      "basic",
      "--export-json",
      "/out/raw/cli/base-1.json",
      "--warmup",
      "1",
      "--runs",
      "5",
      "-N",
      "--command-name",
      "help",
      "/t/release/demo-cli --help",
      "--command-name",
      "stats",
      "/t/release/demo-cli stats --count 200000",
    ]);
  });

  it("leaves out --warmup, --runs and --prepare when not configured", () => {
    const argv = hyperfineArgv(hyperfine(), "/o.json", { target: "/t", worktree: "/w" });
    expect(argv).not.toContain("--warmup");
    expect(argv).not.toContain("--runs");
    expect(argv).not.toContain("--prepare");
  });

  it("shell-quotes substituted paths in commands and --prepare, and the shell reads them back", () => {
    const suite = hyperfine({ prepare: "rm -f {worktree}/cache.bin" });
    const values = { target: NASTY, worktree: "/tmp/a b" };
    const argv = hyperfineArgv(suite, "/o.json", values);
    const command = argv.at(-1) ?? "";
    expect(command).toBe(`${shellQuote(NASTY)}/release/demo-cli --help`);
    expect(argv[argv.indexOf("--prepare") + 1]).toBe("rm -f '/tmp/a b'/cache.bin");
    // What hyperfine's shell would run: the program path comes back whole.
    expect(throughShell([command])).toEqual([`${NASTY}/release/demo-cli`, "--help"]);
    // The export path is an argv item, not a shell word: never quoted.
    expect(hyperfineArgv(suite, "/o u t.json", values)).toContain("/o u t.json");
  });
});
