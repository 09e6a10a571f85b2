import { describe, expect, it } from "vitest";
import { partialLine } from "./decide.ts";

describe("partialLine", () => {
  it("names the signal and the rounds completed of those planned", () => {
    expect(
      partialLine({ reason: "signal", signal: "SIGTERM", rounds_completed: 2, rounds_planned: 5 }),
    ).toBe("partial: stopped by SIGTERM after 2 of 5 rounds; this verdict is of those rounds only");
  });
  it("sequential rounds: of up to max-rounds; without a count or signal still one line", () => {
    expect(
      partialLine(
        { reason: "signal", signal: "SIGINT", rounds_completed: 1, rounds_planned: 15 },
        true,
      ),
    ).toBe(
      "partial: stopped by SIGINT after 1 of up to 15 rounds; this verdict is of those rounds only",
    );
    expect(partialLine({ reason: "signal", rounds_completed: 1 })).toBe(
      "partial: stopped by a signal after 1 round; this verdict is of those rounds only",
    );
  });
});
