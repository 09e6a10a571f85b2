// The real side effects of the CLI.
import { nodeFileReader, nodeFileWriter } from "../io/node-files.ts";
import { nodeSystem } from "../io/node-system.ts";
import type { CliDeps } from "./deps.ts";

export const nodeDeps: CliDeps = {
  reader: nodeFileReader,
  writer: nodeFileWriter,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  now: () => new Date(),
  system: nodeSystem(),
};
