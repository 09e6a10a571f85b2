#!/usr/bin/env node
import { nodeMachine } from "../io/node-machine.ts";
import { main } from "./main.ts";

process.exitCode = await main(
  process.argv.slice(2),
  nodeMachine(),
  process.env["BENCHGATE_DEBUG"] === "1",
);
