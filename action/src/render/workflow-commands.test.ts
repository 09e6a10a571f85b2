import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defuseWorkflowCommands, workflowCommandGuard } from "./workflow-commands.ts";
import { parseJsonText } from "../schemas/parse-json.ts";

/**
 * What the GitHub runner would treat as a command (src/Runner.Common/ActionCommand.cs in
 * actions/runner): a line that starts with "::" after leading whitespace, or that contains "##[".
 */
function commandLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/u)
    .filter((line) => /^[\s\u0085]*::/u.test(line) || line.includes("##["));
}

const ATTACKS = [
  "::add-mask::secret",
  "::stop-commands::token",
  "  ::set-output name=verdict::pass",
  "\t\u00a0\u3000::error title=x::forged",
  "bench ##[add-mask]secret",
  "###[set-output name=verdict;]pass",
  "ok\r::warning::after a carriage return",
];

describe("defuseWorkflowCommands", () => {
  it("leaves no line the runner would obey, and shows what was there", () => {
    const out = defuseWorkflowCommands(ATTACKS.join("\n"));
    expect(commandLines(out)).toEqual([]);
    expect(out).toContain(":\\u003aadd-mask::secret");
    expect(out).toContain("  :\\u003aset-output name=verdict::pass");
    expect(out).toContain("bench ##\\u005badd-mask]secret");
  });

  it("leaves ordinary text alone", () => {
    for (const text of ["fib/30  1.2 ms", "a::b", ": :x", "C# [1]", "# [x]", "http://x:80/"])
      expect(defuseWorkflowCommands(text)).toBe(text);
  });

  it("is idempotent", () => {
    const once = defuseWorkflowCommands(ATTACKS.join("\n"));
    expect(defuseWorkflowCommands(once)).toBe(once);
  });

  it("property: no line of the output is a command, whatever the input", () => {
    const text = fc.string({
      unit: fc.constantFrom(":", "#", "[", " ", "\t", "\n", "\r", "\u00a0", "x", "\\"),
      maxLength: 40,
    });
    fc.assert(
      fc.property(text, (s) => {
        expect(commandLines(defuseWorkflowCommands(s))).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it("property: a JSON document keeps every value", () => {
    const value = fc.dictionary(
      fc.string({ unit: fc.constantFrom(":", "#", "[", "x", " ", "\\", '"') }),
      fc.string({ unit: fc.constantFrom(":", "#", "[", "x", " ", "\\", "\n") }),
    );
    fc.assert(
      fc.property(value, (v) => {
        for (const json of [JSON.stringify(v), JSON.stringify(v, null, 2)])
          // parseJsonText, not JSON.parse: V8 can misread an escaped key (parse-escaped-keys.ts).
          expect(parseJsonText(defuseWorkflowCommands(json), "stdout")).toEqual(v);
      }),
      { numRuns: 500 },
    );
  });
});

describe("workflowCommandGuard", () => {
  it("catches a command split over several writes", () => {
    const guard = workflowCommandGuard();
    const out = ["done\n  :", ":add-mask::x\nbench #", "#", "[add-mask]y\n"].map(guard).join("");
    expect(commandLines(out)).toEqual([]);
    expect(out).toBe("done\n  :\\u003aadd-mask::x\nbench ##\\u005badd-mask]y\n");
  });

  it("property: writing in pieces gives the same text as writing at once", () => {
    const text = fc.string({ unit: fc.constantFrom(":", "#", "[", " ", "\n", "x"), maxLength: 30 });
    fc.assert(
      fc.property(text, fc.array(fc.nat(30)), (s, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((a, b) => a - b);
        const guard = workflowCommandGuard();
        let at = 0;
        let out = "";
        for (const p of [...points, s.length]) {
          out += guard(s.slice(at, p));
          at = p;
        }
        expect(out).toBe(defuseWorkflowCommands(s));
      }),
      { numRuns: 500 },
    );
  });
});
