import { describe, expect, it } from "vitest";
import { checkExtraFiles, checkPagesDir, pagesPath, relativePathProblem } from "./pages-paths.ts";
import { checkBranch, checkRemote, redactRemote } from "./pages-git.ts";

describe("pages paths", () => {
  it("accepts plain relative paths", () => {
    for (const p of ["data.js", "assets/app.1.js", "dev/bench", "a_b-c.d"])
      expect(relativePathProblem(p)).toBeUndefined();
  });

  it("refuses traversal, absolute paths, dot files and odd characters", () => {
    const bad = [
      "",
      "../x",
      "a/../b",
      "/etc/passwd",
      "a\\b",
      ".git/config",
      "a/.hidden",
      "a//b",
      "a/",
      "x y",
      "é",
      "a/./b",
    ];
    for (const p of bad) expect(relativePathProblem(p), p).toBeDefined();
  });

  it("checks the directory flag, with . for the root", () => {
    expect(() => checkPagesDir(".")).not.toThrow();
    expect(() => checkPagesDir("../up")).toThrow(/--dir/);
    expect(pagesPath(".", "history.json")).toBe("history.json");
    expect(pagesPath("dev/bench", "data.js")).toBe("dev/bench/data.js");
  });

  it("checks extra files: paths, history.json, count", () => {
    expect(() => checkExtraFiles(new Map([["index.html", "<p>"]]))).not.toThrow();
    expect(() => checkExtraFiles(new Map([["../x", ""]]))).toThrow(/extra file path/);
    expect(() => checkExtraFiles(new Map([["history.json", "{}"]]))).toThrow(/history.json/);
    const many = new Map(Array.from({ length: 300 }, (_, i) => [`f${i}`, ""] as const));
    expect(() => checkExtraFiles(many)).toThrow(/limit 256/);
  });
});

describe("remote and branch", () => {
  it("refuses option-like or control-character remotes", () => {
    expect(() => checkRemote("--upload-pack=evil")).toThrow(/not a URL or a path/);
    expect(() => checkRemote("a\nb")).toThrow();
    expect(() => checkRemote("https://github.com/o/r.git")).not.toThrow();
  });

  it("hides credentials in URLs", () => {
    expect(redactRemote("https://x-access-token:ghs_secret@github.com/o/r.git")).toBe(
      "https://***@github.com/o/r.git",
    );
    expect(redactRemote("/srv/pages.git")).toBe("/srv/pages.git");
  });

  it("accepts branch names git accepts, refuses the rest", () => {
    for (const b of ["gh-pages", "pages/bench", "v1.2"]) expect(() => checkBranch(b)).not.toThrow();
    for (const b of ["-f", "+gh-pages", "a..b", "x.lock", "a//b", "/x", "x/", "a b", "@{-1}"])
      expect(() => checkBranch(b), b).toThrow(/not a valid branch name/);
  });
});
