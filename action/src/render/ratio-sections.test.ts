import { describe, expect, it } from "vitest";
import type { HeadToHeadResult, SideRatio } from "../schemas/report.gen.ts";
import { ratioPhrase, type Quoting } from "./ratio-sections.ts";

const PLAIN: Quoting = { name: (s) => s, text: (s) => s ?? "" };

function result(
  direction: NonNullable<HeadToHeadResult["direction"]>,
  unit: string,
): HeadToHeadResult {
  return {
    suite: "api",
    benchmark: "health",
    reference: { variant: "rust", id: "rust/health" },
    other: { variant: "python", id: "python/health" },
    unit,
    direction,
    level: 0.95,
    head: { ratio: 1, interval: [1, 1], rounds: 3 },
    base: { ratio: 1, interval: [1, 1], rounds: 3 },
  };
}

const side = (ratio: number, lo: number, hi: number): SideRatio => ({
  ratio,
  interval: [lo, hi],
  rounds: 5,
});

describe("ratioPhrase", () => {
  it("makes the larger rate the subject, its interval turned round with it", () => {
    const rates = result("bigger_is_better", "req/s");
    expect(ratioPhrase(rates, side(8.1, 7.6, 8.7), PLAIN)).toBe(
      "python 8.1× the req/s of rust [7.6×, 8.7×]",
    );
    expect(ratioPhrase(rates, side(0.125, 0.1, 0.25), PLAIN)).toBe(
      "rust 8× the req/s of python [4×, 10×]",
    );
  });

  it("says faster or slower for times, never a factor below 1", () => {
    const times = result("smaller_is_better", "ns");
    expect(ratioPhrase(times, side(3.2, 2.9, 3.5), PLAIN)).toBe(
      "python 3.2× faster than rust [2.9×, 3.5×]",
    );
    expect(ratioPhrase(times, side(0.5, 0.4, 0.625), PLAIN)).toBe(
      "python 2× slower than rust [1.6×, 2.5×]",
    );
  });
});
