import { describe, expect, it } from "vitest";
import {
  formatChange,
  formatExactChange,
  formatExactPercent,
  formatPercent,
  groupDigits,
} from "./number-text.ts";

describe("number-text", () => {
  it("writes a change of ±1,000 % or more as its ratio, in every form", () => {
    expect(formatChange(29)).toBe("×30");
    expect(formatPercent(29)).toBe("×30");
    expect(formatExactChange(29)).toBe("×30");
    expect(formatExactPercent(29)).toBe("×30");
    expect(formatChange(1_399_999)).toBe("×1,400,000");
    expect(formatPercent(-25)).toBe("×26");
  });

  it("gives an exact count two decimals below 1 %, one above, and reads zero unsigned", () => {
    expect(formatExactChange(0.005)).toBe("+0.50 %");
    expect(formatExactChange(-0.0025)).toBe("\u22120.25 %");
    expect(formatExactChange(0.034)).toBe("+3.4 %");
    expect(formatExactChange(0.00001)).toBe("0.00 %");
    expect(formatExactChange(0)).toBe("0.0 %");
    expect(formatExactPercent(0.01)).toBe("1.0 %");
    expect(formatExactPercent(0.001)).toBe("0.10 %");
    expect(formatChange(0.005)).toBe("+0.5 %");
  });

  it("groups digits", () => {
    expect(groupDigits(1234567)).toBe("1,234,567");
    expect(groupDigits(-999)).toBe("999");
  });
});
