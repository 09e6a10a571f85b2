// This release: its version (kept equal to package.json's by a test; bundles should not carry
// package.json) and where its docs are. The npm package holds only the CLI bundle, so a help
// text or message that names docs/run.md points at nothing on an installed user's machine: it
// names the file at this release's tag on GitHub instead, which says what this version does.
export const VERSION = "0.1.0";
export const GENERATOR = Object.freeze({ name: "benchgate", version: VERSION });

/** The repository's home, as package.json's `repository` and `homepage` say (a test keeps them equal). */
export const REPOSITORY_URL = "https://github.com/benchgate/benchgate";

/** A file or folder of the repository (`docs/run.md`, `schemas/`) at this release's tag. */
export function docsUrl(file: string): string {
  return `${REPOSITORY_URL}/blob/v${VERSION}/${file}`;
}
