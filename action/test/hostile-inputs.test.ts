// Walks the hostile-input corpus (./hostile/corpus.ts): every input adapter × every corruption,
// run through the CLI's own entry (main) on the real file system. The contract for each case
// (docs/cli.md): exit 2, exactly one line on stderr naming the problem, no stack trace, nothing
// on stdout and nothing left in the output folder — no summary, no report, no temporary file.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/cli/main.ts";
import { capturedDeps } from "./support/cli-deps.ts";
import { ADAPTERS, CORRUPTIONS, type Adapter, type Corruption } from "./hostile/corpus.ts";

const root = mkdtempSync(path.join(tmpdir(), "benchgate-hostile-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let serial = 0;

/** Writes the adapter's valid files, then breaks the one the corruption targets. */
function materialize(adapter: Adapter, corruption: Corruption): string {
  const dir = path.join(root, `case-${++serial}`);
  for (const [file, bytes] of adapter.files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), bytes);
  }
  mkdirSync(path.join(dir, "out"));
  const target = corruption.kind === "bytes" ? adapter[corruption.target] : adapter.number;
  const file = path.join(dir, target.file);
  const valid = adapter.files.get(target.file);
  if (valid === undefined) throw new Error(`corpus: ${adapter.title} has no ${target.file}`);
  rmSync(file);
  switch (corruption.kind) {
    case "bytes":
      writeFileSync(file, corruption.apply(valid, { key: target.key, foreign: adapter.foreign }));
      break;
    case "symlink":
      // A link to a valid copy: following links is refused whatever they point at.
      writeFileSync(`${file}.real`, valid);
      symlinkSync(`${file}.real`, file);
      break;
    case "fifo":
      // Nobody ever writes to it: an adapter that opened it would hang (the test's timeout).
      execFileSync("mkfifo", [file]);
      break;
    case "directory":
      mkdirSync(file);
      break;
  }
  return dir;
}

const CASES = ADAPTERS.flatMap((adapter) =>
  CORRUPTIONS.map((corruption) => ({ adapter, corruption })),
);

describe(`the hostile-input corpus (${CASES.length} cases)`, () => {
  it.each(CASES.map((c) => [`${c.adapter.title} × ${c.corruption.name}`, c] as const))(
    "%s: exit 2, one line, no output left",
    async (_, { adapter, corruption }) => {
      const dir = materialize(adapter, corruption);
      const out = path.join(dir, "out", "result.json");
      const cli = capturedDeps({ cwd: dir });
      const status = await main(adapter.argv(dir, out), cli.deps);
      const stderr = cli.err();
      expect({ status, stderr }).toMatchObject({ status: 2 });
      const lines = stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^benchgate: error: /);
      // The line names the broken file (or the folder it is in).
      expect(lines[0]).toContain(dir);
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(cli.out()).toBe("");
      expect(readdirSync(path.join(dir, "out"))).toEqual([]);
    },
    20_000,
  );
});
