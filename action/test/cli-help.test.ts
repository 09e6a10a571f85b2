// Every --help as an installed user reads it (issue 28): the npm package carries only the CLI
// bundle, so a help text that names docs/run.md or schemas/ points at nothing on their machine;
// it must give the file at this release's tag. And each option is described once.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { docsUrl, REPOSITORY_URL, VERSION } from "../src/version.ts";
import { ROOT, runCli } from "./support/cli.ts";

const COMMANDS = [
  [],
  ["ingest"],
  ["validate"],
  ["compare"],
  ["run"],
  ["merge"],
  ["golden"],
  ["init"],
  ["runner-hook"],
  ["history"],
  ["history", "append"],
  ["history", "import"],
  ["history", "site"],
  ["history", "supersede"],
  ["baseline"],
  ["baseline", "accept"],
] as const;

// A path into this repository that is not part of a URL; baselines/NAME/ is the user's own folder.
const REPO_PATH = /(?<![\w/.:-])(?:docs|schemas|bench|examples|action|scripts)\/[\w./*-]*/gu;

const CASES = COMMANDS.map((command) => [command.join(" "), command] as const);

describe.each(CASES)("benchgate %s --help", (_, command: readonly string[]) => {
  const help = (): string => {
    const result = runCli([...command, "--help"]);
    expect(result.status, result.stderr).toBe(0);
    return result.stdout;
  };

  it("names no path the installed package lacks, only this release's docs by URL", () => {
    const text = help();
    expect(text.match(REPO_PATH) ?? []).toEqual([]);
    for (const url of text.match(/https:\/\/\S+/gu) ?? [])
      expect(url).toMatch(new RegExp(`^${REPOSITORY_URL}/blob/v${VERSION}/`, "u"));
  });

  it("describes each option once", () => {
    const options = help()
      .split("\n")
      // An option's line: the flag, its argument names, then two spaces or the line's end.
      .map((line) => /^ {2}(-[\w-]+(?:, --[\w-]+)?)(?: [A-Z][\w.|,]*)*(?: {2}|$)/u.exec(line)?.[1])
      .filter((o) => o !== undefined);
    expect(options.filter((o, i) => options.indexOf(o) !== i)).toEqual([]);
  });
});

describe("the docs' address", () => {
  it("is the repository package.json names, at this version's tag", () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, "utf8")) as {
      version: string;
      homepage?: string;
      repository?: { url?: string };
      bugs?: { url?: string };
    };
    expect(pkg.homepage).toBe(`${REPOSITORY_URL}#readme`);
    expect(pkg.repository?.url).toBe(`git+${REPOSITORY_URL}.git`);
    expect(pkg.bugs?.url).toBe(`${REPOSITORY_URL}/issues`);
    expect(docsUrl("docs/run.md")).toBe(`${REPOSITORY_URL}/blob/v${pkg.version}/docs/run.md`);
  });
});
