import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const MODULE = fileURLToPath(new URL("./actions-step-io.ts", import.meta.url));

/** What the step's log receives when the action calls io.<method>(text), in a child process. */
function logged(method: "info" | "warning", text: string): string {
  const script = `const { actionsStepIO } = await import(${JSON.stringify(MODULE)});
actionsStepIO.${method}(${JSON.stringify(text)});`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe("actionsStepIO", () => {
  it("info never prints a line the runner would obey (docs/threat-model.md, O6)", () => {
    const out = logged("info", "benchmarks:\n::add-mask::secret\n  ::stop-commands::t\nb ##[x]");
    expect(out).toBe(
      "benchmarks:\n:\\u003aadd-mask::secret\n  :\\u003astop-commands::t\nb ##\\u005bx]\n",
    );
  });

  it("warning is one command line, its text escaped by @actions/core", () => {
    expect(logged("warning", "a\n::add-mask::secret")).toBe("::warning::a%0A::add-mask::secret\n");
  });
});
