// `ingest gungraun DIR`: the summary.json files of a gungraun 0.20 or iai-callgrind 0.16 run
// (./gungraun-tree.ts). One run per folder: no --baseline.
import type { DirectoryFormatKind } from "../format-kind.ts";
import { field, hasField, isObject } from "../json-guards.ts";
import { readGungraunTree } from "./gungraun-tree.ts";

export const gungraunFormat: DirectoryFormatKind<"gungraun"> = {
  name: "gungraun",
  input: "directory",
  help: [
    "gungraun 0.20 / iai-callgrind 0.16 --save-summary=json output",
    "(target/gungraun, target/iai): instructions, with cache and heap",
    "counts beside them; ids as the harness's console prints them",
  ],
  // One summary.json of the tree handed to a file format.
  signatures: [
    {
      strength: "shape",
      is: "a gungraun summary",
      matches: (data) =>
        isObject(data) &&
        hasField(data, "module_path") &&
        typeof field(data, "version") === "string" &&
        Array.isArray(field(data, "profiles")),
    },
  ],
  read: (dir, { suite }, reader) =>
    readGungraunTree(dir, suite === undefined ? {} : { suite }, reader),
};
