// Benjamini–Hochberg step-up adjustment: q_i is the smallest FDR level at which benchmark i is
// declared a discovery. Controls the expected share of false alarms among flagged benchmarks under
// independence or positive dependence, which is what shared machine noise produces.

/** Returns BH-adjusted q-values in the input order; NaN p-values stay NaN and are not counted. */
export function benjaminiHochberg(p: readonly number[]): number[] {
  const order = p
    .map((value, index) => ({ value, index }))
    .filter((x) => !Number.isNaN(x.value))
    .sort((a, b) => b.value - a.value);
  const m = order.length;
  const q = p.map(() => Number.NaN);
  let running = 1;
  order.forEach(({ value, index }, k) => {
    const rank = m - k;
    running = Math.min(running, (value * m) / rank);
    q[index] = Math.min(1, running);
  });
  return q;
}
