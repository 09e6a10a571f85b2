import path from "node:path";
import { describe, expect, it } from "vitest";
import type { InstructionsSuite } from "../../../schemas/config.gen.ts";
import { resolveRunConfig } from "../../run-config.ts";
import { stepsOf, type StepContext } from "../suite-kind.ts";
import { BASE_ENV, instructionsSuite, type InstructionsSuitePlan } from "./instructions-suite.ts";

function plan(commands: InstructionsSuite["commands"], env?: Record<string, string>) {
  const config = resolveRunConfig(
    {
      version: 1,
      suites: [
        { name: "startup", kind: "instructions", commands, ...(env === undefined ? {} : { env }) },
      ],
    },
    "benchgate.yml",
    { needSuites: true },
  );
  return config.suites[0] as InstructionsSuitePlan;
}

const run = (side: "base" | "head"): StepContext => ({
  side,
  round: 3,
  tag: `${side}-3`,
  dir: "/out/raw/startup",
  paths: { worktree: `/tmp/wt/${side}`, target: `/cache/target-${side}` },
});

describe("instructions suites: one process on both sides", () => {
  const p = plan(
    [
      { name: "help", command: ["{target}/release/demo-cli", "--help"] },
      { name: "ls", command: ["ls", "/"] },
    ],
    { RUST_LOG: "off" },
  );

  it("runs a side's binary from one shared path, with the same argv and environment on both sides", () => {
    const [base, head] = [
      stepsOf(instructionsSuite.step(p, run("base"))),
      stepsOf(instructionsSuite.step(p, run("head"))),
    ];
    const argvOf = (s: (typeof base)[number]) =>
      s.argv.filter((a) => !a.startsWith("--cachegrind-out-file="));
    expect(base[0]?.stage).toEqual({
      from: "/cache/target-base/release/demo-cli",
      to: path.join("/out/raw/startup/stage/1/demo-cli"),
    });
    expect(head[0]?.stage?.to).toBe(base[0]?.stage?.to);
    expect(argvOf(base[0] as (typeof base)[number])).toEqual(
      argvOf(head[0] as (typeof head)[number]),
    );
    expect(base[0]?.argv.slice(0, 5)).toEqual([
      "setarch",
      "-R",
      "valgrind",
      "--tool=cachegrind",
      "--cache-sim=no",
    ]);
    expect(base[0]?.exactEnv).toEqual({ ...BASE_ENV, RUST_LOG: "off" });
    expect(head[0]?.exactEnv).toEqual(base[0]?.exactEnv);
    // A program from PATH is the same file on both sides: nothing to stage.
    expect(base[1]?.stage).toBeUndefined();
    expect(base[1]?.output).toMatchObject({ format: "cachegrind", name: "ls" });
  });

  it("never builds the output file or the staged path from a benchmark name (docs/threat-model.md, I8)", () => {
    const hostile = plan([{ name: "../../x", command: ["{target}/../..", "a"] }]);
    const [step] = stepsOf(instructionsSuite.step(hostile, run("base")));
    expect(step?.output.path).toBe("/out/raw/startup/base-3/1.cachegrind.out");
    expect(step?.stage?.to).toBe("/out/raw/startup/stage/1/program");
  });

  it("keeps commands by name for /rebench and sequential rounds", () => {
    expect(instructionsSuite.filter(p, /^he/, "^he")?.commands.map((c) => c.name)).toEqual([
      "help",
    ]);
    expect(
      instructionsSuite.narrow(p, { ids: ["ls"], active: new Set(["ls"]) })?.plan.commands,
    ).toHaveLength(1);
    expect(instructionsSuite.narrow(p, { ids: [], active: new Set() })).toBeUndefined();
  });
});
