import { describe, expect, it } from "vitest";
import { normalizeUnit } from "./units.ts";

const S = "smaller_is_better";
const B = "bigger_is_better";

describe("normalizeUnit", () => {
  it.each([
    // times → ns
    ["ns", "ns", 1, S, "time"],
    ["us", "ns", 1e3, S, "time"],
    ["\u00b5s", "ns", 1e3, S, "time"],
    ["\u03bcs", "ns", 1e3, S, "time"],
    ["ms", "ns", 1e6, S, "time"],
    ["s", "ns", 1e9, S, "time"],
    ["sec", "ns", 1e9, S, "time"],
    ["seconds", "ns", 1e9, S, "time"],
    ["ps", "ns", 1e-3, S, "time"],
    ["min", "ns", 60e9, S, "time"],
    ["ns/iter", "ns", 1, S, "time"],
    ["ms/op", "ns", 1e6, S, "time"],
    ["µs/iter", "ns", 1e3, S, "time"],
    [" ms ", "ns", 1e6, S, "time"],
    // rates → <thing>/s, bigger is better
    ["ops/s", "ops/s", 1, B, "rate"],
    ["ops/sec", "ops/s", 1, B, "rate"],
    ["op/s", "ops/s", 1, B, "rate"],
    ["ops/ms", "ops/s", 1e3, B, "rate"],
    ["req/s", "req/s", 1, B, "rate"],
    ["requests per second", "req/s", 1, B, "rate"],
    ["ops per sec", "ops/s", 1, B, "rate"],
    ["ops_per_sec", "ops/s", 1, B, "rate"],
    ["elem/s", "elem/s", 1, B, "rate"],
    ["Kelem/s", "elem/s", 1e3, B, "rate"],
    ["Melem/s", "elem/s", 1e6, B, "rate"],
    ["Gelem/s", "elem/s", 1e9, B, "rate"],
    ["Mops/s", "ops/s", 1e6, B, "rate"],
    ["B/s", "B/s", 1, B, "rate"],
    ["KB/s", "B/s", 1e3, B, "rate"],
    ["kB/s", "B/s", 1e3, B, "rate"],
    ["MB/s", "B/s", 1e6, B, "rate"],
    ["MiB/s", "B/s", 2 ** 20, B, "rate"],
    ["GiB/s", "B/s", 2 ** 30, B, "rate"],
    ["Gb/s", "bit/s", 1e9, B, "rate"],
    ["bytes/sec", "B/s", 1, B, "rate"],
    ["frames/s", "frames/s", 1, B, "rate"],
    ["widgets/s", "widgets/s", 1, B, "rate"],
    ["widgets per second", "widgets/s", 1, B, "rate"],
    ["per second", "1/s", 1, B, "rate"],
    ["Hz", "Hz", 1, B, "rate"],
    ["iops", "iops", 1, B, "rate"],
    // sizes → B or bit, smaller is better
    ["B", "B", 1, S, "size"],
    ["bytes", "B", 1, S, "size"],
    ["KiB", "B", 1024, S, "size"],
    ["MB", "B", 1e6, S, "size"],
    ["MiB", "B", 2 ** 20, S, "size"],
    ["GiB", "B", 2 ** 30, S, "size"],
    ["Mb", "bit", 1e6, S, "size"],
    ["bits", "bit", 1, S, "size"],
    ["B/op", "B/op", 1, S, "size"],
    // counts
    ["instructions", "instructions", 1, S, "count"],
    ["instructions:u", "instructions:u", 1, S, "count"],
    ["cycles", "cycles", 1, S, "count"],
    ["allocs/op", "allocs/op", 1, S, "count"],
    // unknown: kept, smaller assumed
    ["points", "points", 1, S, "unknown"],
    ["%", "%", 1, S, "unknown"],
    ["x", "x", 1, S, "unknown"],
    ["b", "b", 1, S, "unknown"],
    ["ops", "ops", 1, S, "unknown"],
    ["s/s", "s/s", 1, S, "unknown"],
    ["", "", 1, S, "unknown"],
  ] as const)("%j → %s ×%d %s (%s)", (raw, unit, factor, direction, kind) => {
    const result = normalizeUnit(raw);
    expect(result.unit).toBe(unit);
    expect(result.factor).toBeCloseTo(factor, 9);
    expect(result.direction).toBe(direction);
    expect(result.kind).toBe(kind);
  });

  it("takes direction from the unit, never from anything else", () => {
    expect(normalizeUnit("ns/iter").direction).toBe(S);
    expect(normalizeUnit("ops/sec").direction).toBe(B);
  });
});
