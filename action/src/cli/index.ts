#!/usr/bin/env node
import { nodeMachine } from "../io/node-machine.ts";
import { nodeTerminal } from "../io/node-terminal.ts";
import { main } from "./main.ts";

// A failed standard output or error (not a closed pipe) turns any result into exit code 3.
const code = await main(
  process.argv.slice(2),
  nodeMachine(),
  process.env["BENCHGATE_DEBUG"] === "1",
);
process.exitCode = nodeTerminal().exitCode(code);
