//! `demo-cli`: the command-line side of benchgate's demo crate, measured with hyperfine and
//! checked with golden outputs. No dependencies; every output is deterministic.
//!
//! Exit codes: 0 on success, 2 on a usage error (message on stderr).

use std::process::ExitCode;

use demo_crate::{fnv1a, join_numbers, parse_numbers, pseudo_random, render_report};

const HELP: &str = "\
demo-cli 0.1.0: the benchgate demo binary

Usage:
  demo-cli stats [--count N]   summarize N pseudo-random numbers (default 1000)
  demo-cli help                print this help (also -h, --help)

stats generates the numbers with a fixed-seed LCG, writes them as a comma-separated
list, parses it back, sorts the values and prints count, sum, min, max, mean, median
and an FNV-1a checksum of the sorted values. The same N always prints the same lines.
";

const SEED: u64 = 42;
const BOUND: u64 = 1_000_000;
const DEFAULT_COUNT: usize = 1000;

fn usage_error(message: &str) -> ExitCode {
    eprintln!("demo-cli: {message} (see demo-cli --help)");
    ExitCode::from(2)
}

fn stats(count: usize) -> String {
    let text = join_numbers(&pseudo_random(count, SEED, BOUND));
    let mut values = parse_numbers(&text);
    values.sort_unstable();
    let median = values.get(values.len() / 2).copied().unwrap_or(0);
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    format!(
        "{}median: {median}\nchecksum: {:016x}\n",
        render_report(&values),
        fnv1a(&bytes)
    )
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => usage_error("missing subcommand"),
        Some("help" | "-h" | "--help") => match args.get(1) {
            Some(extra) => usage_error(&format!("unknown argument `{extra}`")),
            None => {
                print!("{HELP}");
                ExitCode::SUCCESS
            }
        },
        Some("stats") => {
            let mut count = DEFAULT_COUNT;
            let mut rest = args[1..].iter();
            while let Some(arg) = rest.next() {
                match arg.as_str() {
                    "--count" => match rest.next().map(|n| n.parse()) {
                        Some(Ok(n)) => count = n,
                        Some(Err(_)) => return usage_error("--count needs a non-negative integer"),
                        None => return usage_error("--count needs a value"),
                    },
                    other => return usage_error(&format!("unknown argument `{other}` for stats")),
                }
            }
            print!("{}", stats(count));
            ExitCode::SUCCESS
        }
        Some(other) => usage_error(&format!("unknown argument `{other}`")),
    }
}
