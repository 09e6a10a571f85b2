// A regression's annotation writes its change and interval as the comment does: a signed
// percentage under 1,000 %, a ratio from there on.
import { describe, expect, it } from "vitest";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";
import { gateAnnotations } from "./annotations.ts";

function annotationOf(change: number, ci: [number, number]): string | undefined {
  const entry = makeEntry({ id: "normalize", change, ci, verdict: "regressed" });
  return gateAnnotations(makeReport({ benchmarks: [entry], verdict: "fail" }))[0]?.message;
}

describe("gateAnnotations", () => {
  it("writes a regression under 1,000 % as signed percentages", () => {
    expect(annotationOf(0.052, [-0.004, 0.11])).toBe(
      "normalize: +5.2 % (CI \u22120.4 % … +11.0 %)",
    );
  });

  it("writes a regression of 1,000 % or more as a ratio", () => {
    expect(annotationOf(25, [20, 31])).toBe("normalize: ×26 (CI ×21 … ×32)");
  });
});
