// The github-action-benchmark interop and the baseline planner are pure: no file, process or
// network access, so they can be tested and reused (the gh-pages writer calls exportGabDataJs)
// without side effects. eslint's pure-layer rule (eslint.config.mjs) covers these folders too;
// this test checks their imports once more, directly.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const HERE = new URL("./", import.meta.url);
const BASELINES = new URL("../baselines/", import.meta.url);

const sources = [
  ...readdirSync(HERE)
    .filter((f) => /^gab-.*\.ts$/.test(f) && !f.endsWith(".test.ts"))
    .map((f) => new URL(f, HERE)),
  ...readdirSync(BASELINES)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => new URL(f, BASELINES)),
];

describe("pure modules", () => {
  it("finds the modules it checks", () => {
    expect(sources.map((u) => u.pathname.split("/").pop())).toEqual(
      expect.arrayContaining([
        "gab-data.ts",
        "gab-import.ts",
        "gab-export.ts",
        "accept-baseline.ts",
      ]),
    );
  });

  it.each(sources.map((u) => [u.pathname.split("/").slice(-2).join("/"), u] as const))(
    "%s imports no I/O and touches no process globals",
    (_name, url) => {
      const text = readFileSync(url, "utf8");
      const imports = [...text.matchAll(/^import[^"']*["']([^"']+)["']/gm)].map(([, m]) => m);
      for (const module of imports)
        expect(module).not.toMatch(
          /^(node:|fs|path|os|child_process|process|@actions\/|@octokit\/)/,
        );
      // Comments may say "process."; code may not use it.
      const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
      expect(code).not.toMatch(/\b(process|fetch|require)\s*[.(]/);
    },
  );
});
