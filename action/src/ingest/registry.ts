// Every input format of `benchgate ingest`, in the order help and errors list them. Adding a
// format: one folder under ingest/ with its adapter, tests and a FormatKind (./format-kind.ts),
// one line here, `npm run gen` (the summary schema's `source` enum is derived from this list),
// and its section in docs/formats.md.
import { cachegrindFormat } from "./cachegrind/cachegrind-format.ts";
import { critcmpFormat } from "./critcmp/critcmp-format.ts";
import { criterionFormat } from "./criterion/criterion-format.ts";
import { customFormat } from "./custom/custom-format.ts";
import { divanFormat } from "./divan/divan-format.ts";
import { gabFormat } from "./gab/gab-format.ts";
import { gungraunFormat } from "./gungraun/gungraun-format.ts";
import { hyperfineFormat } from "./hyperfine/hyperfine-format.ts";
import { k6Format } from "./k6/k6-format.ts";
import { ohaFormat } from "./oha/oha-format.ts";
import { vegetaFormat } from "./vegeta/vegeta-format.ts";

export const FORMAT_KINDS = [
  criterionFormat,
  hyperfineFormat,
  critcmpFormat,
  customFormat,
  gabFormat,
  gungraunFormat,
  cachegrindFormat,
  ohaFormat,
  k6Format,
  vegetaFormat,
  divanFormat,
] as const;
