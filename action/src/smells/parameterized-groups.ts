// Parameterized groups whose parameter looks like a size (Criterion's `group/function/1000`),
// and the two fits the scaling smells use. A "size" is a positive number in Criterion's
// value_str (or the id's last segment); at least 3 sizes spanning 10× make a group.
import type { BenchmarkRuns, SideData } from "./smell-data.ts";

interface SizedMember {
  readonly size: number;
  readonly benchmark: BenchmarkRuns;
}

export interface ParameterizedGroup {
  /** suite + the id without its size, e.g. "micro · parse". */
  readonly key: string;
  readonly label: string;
  /** Sorted by size. */
  readonly members: readonly SizedMember[];
}

const MIN_SIZES = 3;
const MIN_SIZE_RANGE = 10;

function sizeOf(b: BenchmarkRuns): { size: number; stem: string } | undefined {
  const value = b.metadata["value_str"];
  const text = typeof value === "string" ? value : b.id.split("/").pop();
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text.trim())) return undefined;
  const size = Number(text);
  if (!(size > 0) || !Number.isFinite(size)) return undefined;
  const stem = b.id.endsWith(text)
    ? b.id.slice(0, b.id.length - text.length).replace(/\/$/, "")
    : b.id;
  return stem === "" || stem === b.id ? undefined : { size, stem };
}

export function parameterizedGroups(data: SideData): ParameterizedGroup[] {
  const groups = new Map<string, { label: string; members: SizedMember[] }>();
  for (const b of data.values()) {
    if (b.unit !== "ns") continue;
    const sized = sizeOf(b);
    if (sized === undefined) continue;
    const key = `${b.suite}\u0000${sized.stem}`;
    const group = groups.get(key) ?? { label: sized.stem, members: [] };
    group.members.push({ size: sized.size, benchmark: b });
    groups.set(key, group);
  }
  const out: ParameterizedGroup[] = [];
  for (const [key, g] of groups) {
    const members = g.members.sort((a, b) => a.size - b.size);
    const sizes = new Set(members.map((m) => m.size));
    const first = members[0];
    const last = members[members.length - 1];
    if (first === undefined || last === undefined || sizes.size !== members.length) continue;
    if (members.length >= MIN_SIZES && last.size / first.size >= MIN_SIZE_RANGE)
      out.push({ key, label: g.label, members });
  }
  return out;
}

/** Least-squares slope of ln(time) on ln(size): the scaling exponent (1 ≈ linear). */
export function exponent(sizes: readonly number[], times: readonly number[]): number {
  const x = sizes.map(Math.log);
  const y = times.map(Math.log);
  return slope(x, y).slope;
}

function slope(x: readonly number[], y: readonly number[]): { slope: number; intercept: number } {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += ((x[i] as number) - mx) * ((y[i] as number) - my);
    sxx += ((x[i] as number) - mx) ** 2;
  }
  const s = sxx === 0 ? 0 : sxy / sxx;
  return { slope: s, intercept: my - s * mx };
}

function relativeSse(
  fit: (size: number) => number,
  sizes: readonly number[],
  times: readonly number[],
): number {
  return sizes.reduce(
    (sum, n, i) => sum + ((fit(n) - (times[i] as number)) / (times[i] as number)) ** 2,
    0,
  );
}

interface FixedCostFit {
  /** The fixed cost a of t = a + b·n. */
  readonly fixed: number;
  readonly perUnit: number;
  /** Relative squared error of that model and of t = a + c·ln n (the "legitimately log" one). */
  readonly sseLinear: number;
  readonly sseLog: number;
}

/** Fits t = a + b·n and, for comparison, t = a + c·ln n, by least squares. */
export function fixedCostFit(sizes: readonly number[], times: readonly number[]): FixedCostFit {
  const lin = slope(sizes, times);
  const log = slope(sizes.map(Math.log), times);
  return {
    fixed: lin.intercept,
    perUnit: lin.slope,
    sseLinear: relativeSse((n) => lin.intercept + lin.slope * n, sizes, times),
    sseLog: relativeSse((n) => log.intercept + log.slope * Math.log(n), sizes, times),
  };
}
