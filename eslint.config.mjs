import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "dist/",
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
    // The core is pure: statistics, comparison and rendering import no I/O (SPEC §2).
    files: [
      "action/src/core/**/*.ts",
      "action/src/render/**/*.ts",
      "action/src/ingest/**/*.ts",
      "action/src/budgets/**/*.ts",
      "action/src/golden/**/*.ts",
      "action/src/environment/fingerprint.ts",
      "action/src/runner-policy/**/*.ts",
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
  { files: ["**/*.mjs", "**/*.js"], ...tseslint.configs.disableTypeChecked },
);
