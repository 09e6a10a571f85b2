import { describe, expect, it } from "vitest";
import { callgrindFixture as load } from "../../test/support/callgrind-fixtures.ts";
import { diffProfiles } from "../core/instruction-diff.ts";
import type { InstructionDiff } from "../schemas/instruction-profile.ts";
import { whereBlock } from "./where-block.ts";

const NORMALIZE = diffProfiles(load("normalize.base"), load("normalize.head"));
const FNV = diffProfiles(load("fnv1a.base"), load("fnv1a.head"));

describe("whereBlock", () => {
  it("normalize: the folded block names demo_crate::normalize with +200 % per iteration", () => {
    expect(whereBlock(NORMALIZE)).toBe(
      [
        "<details><summary>Where: +200.0 % instructions per iteration (229,460 → 688,370), most in <code>demo_crate::normalize</code></summary>",
        "",
        "Instructions per iteration under Callgrind; iterations: base 2,047, head 1,023, counted as the calls of <code>demo_crate::normalize</code>.",
        "",
        "By self instructions (in the function itself):",
        "",
        "| function | base | head | change |",
        "| :-- | --: | --: | --: |",
        "| <code>demo_crate::normalize</code> | 229,451 | 688,360 | +458,909 (+200.0 %) |",
        "",
        "By inclusive instructions (with what it calls): the same functions and figures.",
        "",
        "</details>",
      ].join("\n"),
    );
  });

  it("fnv1a: the hashing function, +3.2 %", () => {
    const block = whereBlock(FNV);
    expect(block).toContain("| <code>demo_crate::fnv1a</code> | 15,382 | 15,878 | +496 (+3.2 %) |");
    expect(block).toContain("<summary>Where: +3.2 % instructions per iteration (15,390 → 15,886)");
  });

  it("unchanged instructions: one sentence, the slowdown is elsewhere", () => {
    const block = whereBlock(diffProfiles(load("normalize.base"), load("normalize.base2")));
    expect(block).toContain("<summary>Where: instructions per iteration unchanged (");
    expect(block).toContain(
      "The executed instructions did not change (by less than 1.0 %), so the slowdown is not in them: look at memory, caches, code layout and system calls.",
    );
    expect(block).not.toContain("| function |");
  });

  it("whole runs: says so and why", () => {
    const block = whereBlock(
      diffProfiles(load("fnv1a.base"), load("fnv1a.head"), { routine: "x" }),
    );
    expect(block).toContain("<summary>Where: +3.2 % instructions (504,294,934 → 520,547,366)");
    expect(block).toContain(
      "Whole runs, not per iteration (base: the benchmark routine is not called in the profile)",
    );
  });

  it("escapes every function name and caps the rows", () => {
    const hostile = "</details><script>|x| @someone #1 `tick`";
    const row = { object: "o", base: 1, head: 3, change: 2, relative: 2 };
    const diff: InstructionDiff = {
      ...NORMALIZE,
      basis: { kind: "per-iteration", base: 1, head: 1, method: "routine", routine: hostile },
      self: [
        { ...row, name: hostile },
        { ...row, name: "b", change: 1 },
      ],
      inclusive: [{ ...row, name: hostile, base: 0, relative: null }],
    };
    const block = whereBlock(diff, { maxRows: 1 });
    expect(block).not.toContain("<script>");
    expect(block).not.toContain("</details><");
    expect(block).not.toContain("@someone");
    expect(block).not.toContain("`tick`");
    expect(block.split("\n").filter((l) => l.startsWith("| <code>"))).toHaveLength(2);
    expect(block).toContain("… 1 more; see report.json");
    expect(block).toContain("+2 (new) |");
    expect(block.match(/<\/details>/gu)).toHaveLength(1);
  });
});
