// The bench targets of a crate, read from its Cargo.toml without a TOML library: only `[[bench]]`
// tables and their `name = "…"`, `path = "…"` and `harness = false` lines matter, so a small,
// line-based reader is enough, as long as it never mistakes text inside a multi-line string for
// a table. Which harness a target uses (Criterion, or gungraun/iai-callgrind counting
// instructions under Valgrind) is read from its source by harnessOf(). Pure.

export interface BenchTargets {
  /** Names of `[[bench]]` targets with `harness = false`, in file order, without duplicates. */
  readonly benches: readonly string[];
  /** Each bench's source file as Cargo.toml gives it (`path`), else cargo's `benches/NAME.rs`. */
  readonly paths: ReadonlyMap<string, string>;
  /** Targets that cannot be a suite, with the reason (printed by `benchgate init`). */
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
}

/** The harnesses a `harness = false` bench target can be run with. */
type BenchHarness = "criterion" | "gungraun";

// A path into, or an import of, the Valgrind harness (gungraun, or iai-callgrind before its
// rename): `use gungraun::…`, `gungraun::main!`, `iai_callgrind::library_benchmark`.
const COUNTED = /\b(?:gungraun|iai_callgrind)\s*::/;

/** The harness of a bench target, from its source text: Criterion unless it uses gungraun. */
export function harnessOf(source: string): BenchHarness {
  for (const line of source.split("\n")) {
    const code = line.replace(/\/\/.*$/, "");
    if (COUNTED.test(code)) return "gungraun";
  }
  return "criterion";
}

/** What cargo and benchgate.yml's schema accept as a bench target name. */
export const BENCH_NAME = /^[A-Za-z0-9_-]{1,128}$/;

const BENCH_HEADER = /^\[\[\s*bench\s*\]\]\s*(?:#.*)?$/;
const ANY_HEADER = /^\[/;
const NAME = /^name\s*=\s*(?:"([^"\\]*)"|'([^']*)')\s*(?:#.*)?$/;
const HARNESS = /^harness\s*=\s*(true|false)\s*(?:#.*)?$/;
const PATH = /^path\s*=\s*(?:"([^"\\]*)"|'([^']*)')\s*(?:#.*)?$/;

interface Target {
  name?: string;
  path?: string;
  harness: boolean;
}

/** Counts `"""` and `'''` delimiters so lines inside a multi-line string are skipped. */
function togglesMultiline(line: string, open: string | undefined): string | undefined {
  let state = open;
  for (let i = 0; i < line.length; i++) {
    const three = line.slice(i, i + 3);
    if (state === undefined && line[i] === "#") break;
    if (three === '"""' || three === "'''") {
      if (state === undefined) state = three;
      else if (state === three) state = undefined;
      i += 2;
    }
  }
  return state;
}

export function benchTargets(cargoToml: string): BenchTargets {
  const targets: Target[] = [];
  let current: Target | undefined;
  let multiline: string | undefined;
  for (const raw of cargoToml.split(/\r?\n/)) {
    const wasInside = multiline !== undefined;
    multiline = togglesMultiline(raw, multiline);
    if (wasInside) continue;
    const line = raw.trim();
    if (BENCH_HEADER.test(line)) {
      current = { harness: true };
      targets.push(current);
      continue;
    }
    if (ANY_HEADER.test(line)) {
      current = undefined;
      continue;
    }
    if (current === undefined) continue;
    const name = NAME.exec(line);
    if (name !== null) current.name = name[1] ?? name[2] ?? "";
    const harness = HARNESS.exec(line);
    if (harness !== null) current.harness = harness[1] === "true";
    const file = PATH.exec(line);
    if (file !== null) current.path = file[1] ?? file[2] ?? "";
  }
  const benches: string[] = [];
  const paths = new Map<string, string>();
  const skipped: { name: string; reason: string }[] = [];
  for (const target of targets) {
    const name = target.name;
    if (name === undefined) continue; // cargo would reject it anyway
    if (!BENCH_NAME.test(name))
      skipped.push({ name, reason: "not a plain target name (letters, digits, _ and -)" });
    // Criterion and gungraun need their own main(): libtest's #[bench] harness knows neither.
    else if (target.harness)
      skipped.push({
        name,
        reason: "no `harness = false`, so neither a Criterion nor a gungraun bench",
      });
    else if (!benches.includes(name)) {
      benches.push(name);
      paths.set(name, target.path ?? `benches/${name}.rs`);
    }
  }
  return { benches, paths, skipped };
}
