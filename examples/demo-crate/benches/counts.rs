//! benchgate demo suite of instruction counts (gungraun 0.20.0, Callgrind under Valgrind).
//!
//! The same workloads and inputs as `benches/demo.rs`, counted instead of timed: a count is the
//! same on every run, so a change of a few percent shows even where timings on a noisy machine
//! cannot confirm it. Run with `gungraun-runner` 0.20.0 on PATH:
//! `cargo bench --bench counts -- --save-summary=json`.
//!
//! | benchmark (function, id)  | input                                      |
//! |---------------------------|--------------------------------------------|
//! | `parse`, `n1000`          | 1000 numbers as text (Criterion `parse/1000`) |
//! | `checksum`, `fnv1a`       | 4 KiB (Criterion `checksum/fnv1a`)          |
//! | `render_report`, `n1000`  | 1000 numbers (Criterion `render_report`)    |
//! | `normalize`, `n16k`       | 16 Ki f64 (Criterion `normalize`)           |
//!
//! The inputs are built by the `#[bench]` arguments, which gungraun runs outside the counted
//! region: each count is the one call and nothing else. The demo's head commit
//! (`examples/demo-crate.head.patch`) makes `normalize` about 3× the instructions (`PASSES`
//! 1 → 3) and `checksum` about 3 % more, with no change in its time (`HASH_BLOCK` 4096 → 128;
//! see `fnv1a` in `src/lib.rs`).
use std::hint::black_box;

use gungraun::{library_benchmark, library_benchmark_group, main};

/// `count` numbers as `demo_crate::parse_numbers` reads them (seed 1, as Criterion's `parse`).
fn number_text(count: usize) -> String {
    demo_crate::join_numbers(&demo_crate::pseudo_random(count, 1, 1_000_000))
}

/// 4 KiB of pseudo-random bytes (seed 2, as Criterion's `checksum/fnv1a`).
fn bytes_4k() -> Vec<u8> {
    demo_crate::pseudo_random(4096 / 8, 2, u64::MAX)
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect()
}

/// 16 Ki values for `normalize` (seed 4, as Criterion's `normalize`).
fn floats_16k() -> Vec<f64> {
    demo_crate::pseudo_random(16 * 1024, 4, 1_000_000)
        .into_iter()
        .map(|v| v as f64)
        .collect()
}

#[library_benchmark]
#[bench::n1000(number_text(1000))]
fn parse(text: String) -> Vec<u64> {
    black_box(demo_crate::parse_numbers(black_box(&text)))
}

#[library_benchmark]
#[bench::fnv1a(bytes_4k())]
fn checksum(bytes: Vec<u8>) -> u64 {
    black_box(demo_crate::fnv1a(black_box(&bytes)))
}

#[library_benchmark]
#[bench::n1000(demo_crate::pseudo_random(1000, 3, 1_000_000))]
fn render_report(values: Vec<u64>) -> String {
    black_box(demo_crate::render_report(black_box(&values)))
}

#[library_benchmark]
#[bench::n16k(floats_16k())]
fn normalize(mut data: Vec<f64>) -> Vec<f64> {
    demo_crate::normalize(black_box(&mut data));
    black_box(data)
}

library_benchmark_group!(
    name = demo;
    benchmarks = parse, checksum, render_report, normalize
);

main!(library_benchmark_groups = demo);
