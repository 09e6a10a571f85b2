import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../test/support/fixtures.ts";
import { parseCriterionList } from "./criterion-listing.ts";

const list = (version: string): string =>
  readFileSync(path.join(FIXTURES, "criterion-console", version, "list.txt"), "utf8");

describe("parseCriterionList", () => {
  it.each(["0.3.2", "0.3.6", "0.4.0", "0.5.1", "0.8.2"])(
    "reads the ids Criterion %s's --list prints, and none of its warnings",
    (version) => {
      const ids = parseCriterionList(list(version));
      // Before 0.5 each line ends `: bench`, from 0.5 on `: benchmark`.
      expect(ids.slice(0, 5)).toEqual([
        "fib 20",
        "sum_vec/1000",
        "sum_vec/10000",
        "sort/unstable/1000",
        "flat/fnv1a/65536",
      ]);
      expect(ids).toContain("evil|name `tick` <b>x</b> @someone #12");
      expect(ids.filter((id) => /WARNING|Gnuplot|feature/.test(id))).toEqual([]);
    },
  );

  it("keeps each id once, in its order, across CRLF line ends", () => {
    expect(parseCriterionList("b: benchmark\r\na: bench\nb: benchmark\n\nnot a line\n")).toEqual([
      "b",
      "a",
    ]);
  });
});
