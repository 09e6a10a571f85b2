// The limits a load suite sets on itself (docs/load-tests.md, "What fails the gate"), as budget
// rules beside the ones under `budgets:` (gate/suite-budgets.ts numbers and parses them): every
// endpoint's error rate (max-error-rate, default 0.1 %), the server's file-descriptor growth
// (max-fd-growth, default 16) and, when set, its memory growth. They are checked on head like
// any budget, so they show in the comment's budget table, and they come from the same (base's)
// benchgate.yml as the suites.
import type { LoadSuite } from "../../../schemas/config.gen.ts";
import type { OwnBudgetRule } from "../suite-kind.ts";

const DEFAULT_MAX_ERROR_RATE = "0.1%";
const DEFAULT_MAX_FD_GROWTH = 16;

/** "0.5%" as written, or a fraction 0.005 → "0.5%". */
function percentText(value: string | number): string {
  return typeof value === "number" ? `${value * 100}%` : value.trim().replace(/\s+/g, "");
}

/** The variants' names, or one unnamed server. */
function variantsOf(suite: LoadSuite): (string | undefined)[] {
  return suite.variants === undefined ? [undefined] : suite.variants.map((v) => v.name);
}

export function loadBudgetRules(suite: LoadSuite): OwnBudgetRule[] {
  const rules: OwnBudgetRule[] = [];
  const errors = percentText(suite["max-error-rate"] ?? DEFAULT_MAX_ERROR_RATE);
  const fds = suite["max-fd-growth"] ?? DEFAULT_MAX_FD_GROWTH;
  const rss = suite["max-rss-growth"];
  const origin = (key: string): string => `suite ${suite.name}'s ${key}`;
  for (const variant of variantsOf(suite)) {
    const prefix = variant === undefined ? "" : `${variant}/`;
    for (const endpoint of suite.endpoints)
      rules.push({
        rule: { benchmark: `${prefix}${endpoint.name} errors`, error_rate: `<= ${errors}` },
        origin: origin("max-error-rate"),
      });
    const server = `${suite.name}/${prefix}server`;
    rules.push({
      rule: { benchmark: `${server} [fd_growth]`, fd_growth: `<= ${fds}` },
      origin: origin("max-fd-growth"),
    });
    if (rss !== undefined)
      rules.push({
        rule: { benchmark: `${server} [rss_growth]`, rss_growth: `<= ${rss.trim()}` },
        origin: origin("max-rss-growth"),
      });
  }
  return rules;
}
