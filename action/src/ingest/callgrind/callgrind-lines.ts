// The line grammar of Callgrind's output format (https://valgrind.org/docs/manual/cl-format.html)
// that callgrind-profile.ts reads: specification lines (`fn=(12) name`, `calls=3 +4`) with name
// compression, and cost lines (`+2 14`, `* 7 0 3`). Every number is checked: a profile is
// untrusted input. Pure.

type Fail = (line: number, problem: string) => never;

/** Longest line read; Rust's longest demangled names are a few thousand characters. */
const MAX_LINE_LENGTH = 32 * 1024;
/** Compression ids: Valgrind numbers them from 1; no file has a billion names. */
const MAX_ID = 1_000_000_000;

const NAME_KEYS = ["ob", "fl", "fi", "fe", "fn", "cob", "cfi", "cfl", "cfn", "jfi", "jfn"] as const;
type NameKey = (typeof NAME_KEYS)[number];
export type SpecKey = NameKey | "calls" | "jump" | "jcnd";

type Spec =
  | { readonly key: NameKey; readonly name: string }
  | { readonly key: "calls"; readonly count: number }
  | { readonly key: "jump" | "jcnd" };

/** The three name tables of the format: objects, files, functions. */
const TABLE: Readonly<Record<NameKey, SpecKey>> = {
  ob: "ob",
  cob: "ob",
  fl: "fl",
  fi: "fl",
  fe: "fl",
  cfi: "fl",
  cfl: "fl",
  jfi: "fl",
  fn: "fn",
  cfn: "fn",
  jfn: "fn",
};

/** A non-negative integer token, exact: at most 2^53 − 1. */
function count(token: string, n: number, fail: Fail, what: string): number {
  if (!/^[0-9]{1,16}$/u.test(token))
    fail(n, `${what} ${JSON.stringify(token.slice(0, 32))} is not a non-negative integer`);
  const value = Number(token);
  if (!Number.isSafeInteger(value)) fail(n, `${what} ${token} is too large to be exact`);
  return value;
}

/** `positions:` → how many position tokens start a cost line (`line`, `instr`, `instr line`). */
export function parsePositionKinds(value: string, n: number, fail: Fail): number {
  const kinds = value.split(/\s+/u).filter((k) => k !== "");
  if (kinds.length === 0 || kinds.length > 2 || new Set(kinds).size !== kinds.length)
    fail(
      n,
      `"positions:" must name line, instr or both, got ${JSON.stringify(value.slice(0, 64))}`,
    );
  for (const k of kinds)
    if (k !== "line" && k !== "instr")
      fail(n, `unknown position kind ${JSON.stringify(k.slice(0, 32))}`);
  return kinds.length;
}

/** A position: absolute (decimal or 0x hex), relative (+N, -N) or the same as before (*). */
function checkPosition(token: string, n: number, fail: Fail): void {
  if (!/^(?:[0-9]{1,20}|0x[0-9a-fA-F]{1,16}|[+-][0-9]{1,20}|\*)$/u.test(token))
    fail(n, `invalid position ${JSON.stringify(token.slice(0, 32))}`);
}

/**
 * A cost line's Ir: `positions` position tokens, then up to `events` counts (missing trailing
 * counts are zero). `positions` 0 reads a `totals:`/`summary:` value.
 */
export function parseCostLine(
  line: string,
  positions: number,
  events: number,
  ir: number,
  n: number,
  fail: Fail,
): number {
  if (line.length > MAX_LINE_LENGTH) fail(n, `line longer than ${MAX_LINE_LENGTH} characters`);
  const tokens = line.trim().split(/\s+/u);
  if (tokens.length < positions) fail(n, `a cost line needs ${positions} position(s)`);
  if (tokens.length > positions + events)
    fail(n, `${tokens.length - positions} counts for ${events} event(s)`);
  for (let i = 0; i < positions; i++) checkPosition(tokens[i] as string, n, fail);
  let value = 0;
  for (let i = positions; i < tokens.length; i++) {
    const c = count(tokens[i] as string, n, fail, "count");
    if (i - positions === ir) value = c;
  }
  return value;
}

/**
 * A specification line (`key=…`), or undefined when the line is not one (a cost line). Names
 * are resolved through `names`: `(id) name` defines id, `(id)` alone refers to it.
 */
export function parseSpec(
  line: string,
  n: number,
  names: Map<SpecKey, Map<string, string>>,
  fail: Fail,
): Spec | undefined {
  const eq = /^([a-z]+)=/u.exec(line);
  if (eq === null) {
    if (!/^[0-9+*-]/u.test(line))
      fail(n, `not a Callgrind line: ${JSON.stringify(line.slice(0, 64))}`);
    return undefined;
  }
  if (line.length > MAX_LINE_LENGTH) fail(n, `line longer than ${MAX_LINE_LENGTH} characters`);
  const key = eq[1] as string;
  const rest = line.slice(eq[0].length);
  if (key === "calls") {
    const tokens = rest.trim().split(/\s+/u);
    const calls = count(tokens[0] ?? "", n, fail, "call count");
    if (tokens.length < 2) fail(n, "calls= without a target position");
    for (const t of tokens.slice(1)) checkPosition(t, n, fail);
    return { key: "calls", count: calls };
  }
  if (key === "jump" || key === "jcnd") return { key };
  const nameKey = NAME_KEYS.find((k) => k === key);
  if (nameKey === undefined) fail(n, `unknown specification ${JSON.stringify(key.slice(0, 16))}=`);
  return { key: nameKey, name: resolveName(rest, TABLE[nameKey], n, names, fail) };
}

function resolveName(
  rest: string,
  tableKey: SpecKey,
  n: number,
  names: Map<SpecKey, Map<string, string>>,
  fail: Fail,
): string {
  const compressed = /^\((\d{1,10})\)(?: (.*))?$/u.exec(rest);
  if (compressed === null) return rest; // an uncompressed name
  const id = Number(compressed[1]);
  if (id > MAX_ID) fail(n, `name id ${id} is too large`);
  let table = names.get(tableKey);
  if (table === undefined) {
    table = new Map();
    names.set(tableKey, table);
  }
  const defined = compressed[2];
  if (defined !== undefined) {
    table.set(compressed[1] as string, defined);
    return defined;
  }
  const known = table.get(compressed[1] as string);
  if (known === undefined) fail(n, `name id (${id}) used before it is defined`);
  return known;
}
