import path from "node:path";
import { describe, expect, it } from "vitest";
import { errorOf } from "../../test/support/input-error.ts";
import { joinInside } from "./config-checks.ts";
import { resolveRunConfig } from "./run-config.ts";
import { customSuite, type CustomSuitePlan } from "./suites/custom/custom-suite.ts";
import { stepsOf } from "./suites/suite-kind.ts";

const SOURCE = "benchgate.yml";
const OUT = path.resolve("/work/out/raw/u");

describe("a custom suite's output stays inside {out}", () => {
  it("the resolver refuses an output with a '..' part, naming the key", () => {
    // Before, `output: ../../../../etc/passwd` became a plan, joined to {out} unchecked.
    const error = errorOf(() =>
      resolveRunConfig(
        {
          version: 1,
          suites: [{ name: "u", kind: "custom", command: ["h"], output: "../../../../etc/passwd" }],
        },
        SOURCE,
        { needSuites: true },
      ),
    );
    expect(error.describe()).toBe(
      'benchgate.yml: /suites/0/output: "../../../../etc/passwd" must be a relative path inside {out}, without ".." parts: it has a ".." part',
    );
  });

  it("the step joins the output to {out} only when the result stays inside", () => {
    const plan = (output: string): CustomSuitePlan => ({
      kind: "custom",
      name: "u",
      timeoutMs: 1000,
      command: ["h", "{out}"],
      output,
    });
    const run = {
      side: "base",
      round: 1,
      tag: "base-1",
      dir: OUT,
      paths: { worktree: "/w", target: "/t" },
    } as const;
    expect(stepsOf(customSuite.step(plan("sub/s.json"), run))[0]?.output.path).toBe(
      path.join(OUT, "base-1", "sub/s.json"),
    );
    // A plan made some other way than from a validated config still cannot leave {out}.
    expect(errorOf(() => customSuite.step(plan("../../../etc/passwd"), run)).message).toMatch(
      /^the custom suite's output "\.\.\/\.\.\/\.\.\/etc\/passwd" is not a path inside /,
    );
  });
});

describe("joinInside", () => {
  it.each(["a", "a/b", "./a", "a/../b"])("%j stays inside", (rel) => {
    expect(joinInside(OUT, rel, "x")).toBe(path.join(OUT, rel));
  });

  it.each(["..", "../x", "a/../../x", ".", "", "/etc/passwd/../.."])("%j is refused", (rel) => {
    expect(() => joinInside(OUT, rel, "x")).toThrow(/is not a path inside/);
  });
});
