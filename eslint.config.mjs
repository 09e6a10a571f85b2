import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "dist/",
      ".benchgate/", // build caches, demo output, test artifacts (gitignored)
      "examples/",
      "bench/data/",
      "action/test/fixtures/",
      "action/src/schemas/validators.gen.*",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/require-array-sort-compare": "error",
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    // The core is pure: statistics, comparison and rendering import no I/O, so they are tested
    // with plain values and shared by the CLI and the action without fakes of the machine.
    files: [
      "action/src/core/**/*.ts",
      "action/src/render/**/*.ts",
      "action/src/ingest/**/*.ts",
      "action/src/budgets/**/*.ts",
      "action/src/golden/**/*.ts",
      "action/src/environment/fingerprint.ts",
      "action/src/runner-policy/**/*.ts",
      // History records, merge, guard, gab interop, change points; the gh-pages writer reaches
      // git only through the ports it is given.
      "action/src/history/**/*.ts",
      "action/src/baselines/**/*.ts",
      "action/src/site/page-*.ts",
      "action/src/site/script-data.ts",
    ],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["node:*", "fs", "path", "child_process", "process", "os"],
              message: "core/render/ingest stay pure: pass side effects in.",
            },
            { group: ["@actions/*", "@octokit/*"], message: "core/render/ingest stay pure." },
          ],
        },
      ],
      "no-restricted-globals": ["error", "process", "fetch", "require"],
    },
  },
  {
    // The history page's browser code (its own tsconfig, DOM library): data from the history is
    // hostile, so no HTML parsing sinks and no network (docs/threat-model.md, O5).
    files: ["action/site/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["node:*"], message: "browser code: no Node modules." }] },
      ],
      "no-restricted-globals": ["error", "fetch", "XMLHttpRequest", "WebSocket", "EventSource"],
      "no-restricted-properties": [
        "error",
        ...["innerHTML", "outerHTML", "insertAdjacentHTML", "write", "writeln"].map((property) => ({
          property,
          message: "set text with textContent and build elements with the DOM (site/dom.ts).",
        })),
      ],
    },
  },
  { files: ["**/*.mjs", "**/*.js"], ...tseslint.configs.disableTypeChecked },
);
