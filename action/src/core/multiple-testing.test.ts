import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { benjaminiHochberg } from "./multiple-testing.ts";

describe("benjaminiHochberg", () => {
  it("matches R's p.adjust(method = 'BH')", () => {
    // p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") = 0.02 0.04 0.04 0.02
    const q = benjaminiHochberg([0.01, 0.04, 0.03, 0.005]);
    [0.02, 0.04, 0.04, 0.02].forEach((v, i) => expect(q[i]).toBeCloseTo(v, 12));
    // p.adjust(c(0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205), "BH")
    const q2 = benjaminiHochberg([0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205]);
    [0.008, 0.032, 0.0672, 0.0672, 0.0672, 0.08, 0.08457143, 0.205].forEach((v, i) =>
      expect(q2[i]).toBeCloseTo(v, 6),
    );
  });

  it("keeps NaN out of the family", () => {
    const q = benjaminiHochberg([0.01, Number.NaN, 0.02]);
    expect(q[1]).toBeNaN();
    expect(q[0]).toBeCloseTo(0.02, 12);
    expect(q[2]).toBeCloseTo(0.02, 12);
  });

  it("q-values are >= p, <= 1, and monotone in p", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 50 }),
        (p) => {
          const q = benjaminiHochberg(p);
          p.forEach((pi, i) => {
            expect(q[i]).toBeGreaterThanOrEqual(pi - 1e-15);
            expect(q[i]).toBeLessThanOrEqual(1);
          });
          const order = p.map((v, i) => [v, q[i] as number] as const).sort((a, b) => a[0] - b[0]);
          for (let i = 1; i < order.length; i++)
            expect(order[i]![1]).toBeGreaterThanOrEqual(order[i - 1]![1] - 1e-15);
        },
      ),
    );
  });
});
