// The new gh-pages commit, built with plumbing in the scratch repository: the changed files as
// blobs, the tip's tree with them in place, and a commit of that tree on top of the tip. Nothing
// is checked out, so files already on the branch are never read into the work directory.
import { ToolError } from "../errors.ts";
import type { FileWriter } from "../ports/files.ts";
import { PAGES_IDENTITY, gitOk, type GitPorts } from "./pages-git.ts";

/** Writes the files as blobs and returns the tree of `tip` (or nothing) with them in place. */
export async function buildTree(
  repo: string,
  scratch: string,
  tip: string | undefined,
  files: ReadonlyMap<string, string | Uint8Array>,
  writer: FileWriter,
  ports: GitPorts,
): Promise<string> {
  const paths = [...files.keys()];
  const blobFiles = paths.map((_, i) => `${scratch}/blob-${i}`);
  for (const [i, p] of paths.entries()) {
    const data = files.get(p) as string | Uint8Array;
    const file = blobFiles[i] as string;
    if (typeof data === "string") await writer.writeText(file, data);
    else await writer.writeBytes(file, data);
  }
  const shas = (
    await gitOk(
      repo,
      ["hash-object", "-w", "--no-filters", "--", ...blobFiles],
      ports,
      "hash-object",
    )
  )
    .trim()
    .split("\n");
  if (shas.length !== paths.length)
    throw new ToolError("git hash-object returned the wrong number of objects");
  await gitOk(
    repo,
    tip === undefined ? ["read-tree", "--empty"] : ["read-tree", tip],
    ports,
    "read-tree",
  );
  await gitOk(
    repo,
    [
      "update-index",
      "--add",
      ...paths.flatMap((p, i) => ["--cacheinfo", `100644,${shas[i] ?? ""},${p}`]),
    ],
    ports,
    "update-index",
  );
  return (await gitOk(repo, ["write-tree"], ports, "write-tree")).trim();
}

/** The tree of commit `tip`: equal to a built tree when the branch already holds those files. */
export async function treeOf(repo: string, tip: string, ports: GitPorts): Promise<string> {
  return (await gitOk(repo, ["rev-parse", `${tip}^{tree}`], ports, "rev-parse")).trim();
}

/** Commits `tree` on top of `tip` (an orphan commit without one) as the fixed pages identity. */
export async function commitTree(
  repo: string,
  tree: string,
  tip: string | undefined,
  message: string,
  ports: GitPorts,
): Promise<string> {
  return (
    await gitOk(
      repo,
      ["commit-tree", tree, ...(tip === undefined ? [] : ["-p", tip]), "-m", message],
      ports,
      "commit-tree",
      {
        env: {
          GIT_AUTHOR_NAME: PAGES_IDENTITY.name,
          GIT_AUTHOR_EMAIL: PAGES_IDENTITY.email,
          GIT_COMMITTER_NAME: PAGES_IDENTITY.name,
          GIT_COMMITTER_EMAIL: PAGES_IDENTITY.email,
        },
      },
    )
  ).trim();
}
