// One server and the steps run against it (a load suite's variant, one side and round): start it
// on a free port, wait until it answers, read its memory and open files, run each endpoint's load,
// read them again once the connections have closed, and stop it. Whatever goes wrong (it never
// becomes ready, it exits mid-run, the load generator is missing) ends in one ToolError that says
// so with the server's last output, and every process the server started is gone afterwards. A
// process that outlived the server's group (a daemon, a worker in a group of its own) is an
// escape: killed, and the one error of the run, naming it.
import type { ServiceStep, SuiteStep } from "../config/suites/suite-kind.ts";
import { escapeFailure, InterruptedError, stderrTail } from "../exec/run-step.ts";
import { failureHeadline, ToolError } from "../errors.ts";
import type { RunningService, ServicePort, ServiceUsage } from "../ports/services.ts";
import type { Benchmark } from "../schemas/summary.gen.ts";

interface ServedRun {
  /** "suite api (head, round 2), server rust". */
  readonly label: string;
  readonly cwd: string;
  /** The side's environment; the service's own variables are added to it. */
  readonly env: Readonly<Record<string, string>>;
  readonly logFile: string;
  readonly suite: string;
  readonly deps: { readonly services: ServicePort; readonly signal: AbortSignal };
  /** Runs one step (the load of one endpoint) and reads its output. */
  readonly runStep: (step: SuiteStep, label: string) => Promise<Benchmark[]>;
}

const READY_POLL_MS = 100;
/** One readiness GET may take this long before it counts as "no answer". */
const PROBE_TIMEOUT_MS = 2000;
/** After the load, how long the server gets to close the connections it was served on. */
const SETTLE_MS = 2000;
const SETTLE_POLL_MS = 100;

/**
 * Resource entries are measured by benchgate itself from /proc, not read from a tool: their
 * `source`, which the summary schema's derived enum takes from here (scripts/summary-sources.ts).
 */
export const RESOURCE_SOURCE = "load";

function exitText(exit: { exitCode: number | null; signal: string | null }): string {
  return exit.exitCode === null
    ? `was killed by ${exit.signal ?? "a signal"}`
    : `exited with code ${exit.exitCode}`;
}

function withOutput(service: RunningService): { details?: string } {
  const tail = service.outputTail().trim();
  return tail === "" ? {} : { details: `its last output:\n${stderrTail(tail)}` };
}

async function startService(
  served: ServiceStep,
  argv: string[],
  run: ServedRun,
): Promise<RunningService> {
  try {
    return await run.deps.services.start(argv, {
      cwd: run.cwd,
      env: { ...run.env, ...served.service.env },
      logFile: run.logFile,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint =
      code === "ENOENT" ? ` (${argv[0] ?? ""} does not exist: was it built by a build: step?)` : "";
    throw new ToolError(`${run.label} could not start: ${(error as Error).message}${hint}`, {
      cause: error,
    });
  }
}

async function waitUntilReady(
  served: ServiceStep,
  url: string,
  service: RunningService,
  run: ServedRun,
): Promise<void> {
  const { services, signal } = run.deps;
  const deadline = Date.now() + served.service.readyTimeoutMs;
  for (;;) {
    if (signal.aborted) throw new InterruptedError(`interrupted while ${run.label} started`);
    const exit = service.exited();
    if (exit !== undefined)
      throw new ToolError(
        `${run.label} ${exitText(exit)} before it answered ${url} (full log: ${run.logFile})`,
        withOutput(service),
      );
    const last = await services.probe(url, PROBE_TIMEOUT_MS);
    if (last === undefined) return;
    if (Date.now() >= deadline)
      throw new ToolError(
        `${run.label} did not become ready within ${Math.round(served.service.readyTimeoutMs / 1000)} s: GET ${url} last gave ${last} (full log: ${run.logFile})`,
        withOutput(service),
      );
    await services.sleep(READY_POLL_MS, signal);
  }
}

/** The usage once the open files are back to where they started, or after SETTLE_MS. */
async function settledUsage(
  pid: number,
  before: ServiceUsage,
  services: ServicePort,
  signal: AbortSignal,
): Promise<ServiceUsage | undefined> {
  let usage = await services.usage(pid);
  for (let waited = 0; waited < SETTLE_MS; waited += SETTLE_POLL_MS) {
    if (usage === undefined || usage.openFiles <= before.openFiles || signal.aborted) break;
    await services.sleep(SETTLE_POLL_MS, signal);
    usage = await services.usage(pid);
  }
  return usage;
}

function resourceEntry(
  run: ServedRun,
  id: string,
  metric: string,
  unit: string,
  value: number,
  metadata: Record<string, number>,
): Benchmark {
  return {
    id: `${id} [${metric}]`,
    suite: run.suite,
    source: RESOURCE_SOURCE,
    unit,
    direction: "smaller_is_better",
    metric,
    secondary: true,
    estimates: { median: value },
    metadata,
  };
}

function resourceEntries(
  served: ServiceStep,
  before: ServiceUsage,
  after: ServiceUsage,
  run: ServedRun,
): Benchmark[] {
  const id = served.service.idPrefix;
  return [
    resourceEntry(run, id, "peak_rss", "B", after.peakRssBytes, {}),
    resourceEntry(run, id, "rss_growth", "B", Math.max(0, after.rssBytes - before.rssBytes), {
      start: before.rssBytes,
      end: after.rssBytes,
    }),
    resourceEntry(run, id, "fd_growth", "fds", Math.max(0, after.openFiles - before.openFiles), {
      start: before.openFiles,
      end: after.openFiles,
    }),
  ];
}

async function loadAll(
  served: ServiceStep,
  service: RunningService,
  withPort: (text: string) => string,
  run: ServedRun,
): Promise<Benchmark[]> {
  const { services, signal } = run.deps;
  const gone = (during: string): ToolError =>
    new ToolError(
      `${run.label} ${exitText(service.exited() ?? { exitCode: null, signal: null })} ${during} (full log: ${run.logFile})`,
      withOutput(service),
    );
  const before = await services.usage(service.pid);
  if (before === undefined) throw gone("right after it became ready");
  const benchmarks: Benchmark[] = [];
  const measured = served.steps.filter((s) => s.unread !== true).length;
  let n = 0;
  for (const step of served.steps) {
    const what =
      step.unread === true
        ? `${run.label}, warm-up of ${step.output.name ?? "an endpoint"}`
        : `${run.label}, endpoint ${++n} of ${measured} (${step.output.name ?? ""})`;
    const [program, ...args] = step.argv;
    const found = await run.runStep(
      { ...step, argv: [withPort(program), ...args.map(withPort)] },
      what,
    );
    // A server that died mid-load leaves a result full of refused connections: the error is the
    // server's exit, not the endpoint's error rate.
    if (service.exited() !== undefined)
      throw gone(`during the load of ${step.output.name ?? "an endpoint"}`);
    benchmarks.push(...found);
  }
  const after = await settledUsage(service.pid, before, services, signal);
  if (after === undefined) throw gone("after the load");
  return [...benchmarks, ...resourceEntries(served, before, after, run)];
}

export async function runServiceStep(served: ServiceStep, run: ServedRun): Promise<Benchmark[]> {
  const port = String(await run.deps.services.freePort());
  const withPort = (text: string): string => text.replaceAll("{port}", port);
  const argv = served.service.argv.map(withPort);
  const service = await startService(served, argv, run);
  let failure: unknown;
  try {
    await waitUntilReady(served, withPort(served.service.readyUrl), service, run);
    return await loadAll(served, service, withPort, run);
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    await stopService(served, service, run, failure);
  }
}

/**
 * Stops the server and everything it started. An escape is the run's error even when another one
 * is on its way (that one goes in the details: an escaped daemon is why a server "exited before it
 * answered"); a process that survives SIGKILL is an error unless another one is on its way.
 */
async function stopService(
  served: ServiceStep,
  service: RunningService,
  run: ServedRun,
  failure: unknown,
): Promise<void> {
  let stopped;
  try {
    stopped = await service.stop(served.service.stopGraceMs);
  } catch (error) {
    if (failure !== undefined) return;
    throw new ToolError(`${run.label} could not be stopped: ${(error as Error).message}`);
  }
  if (stopped.escaped.length > 0)
    throw new ToolError(
      `${escapeFailure(run.label, stopped.escaped)} (full log: ${run.logFile})`,
      failure === undefined ? {} : { details: `before that: ${failureHeadline(failure)}` },
    );
}
