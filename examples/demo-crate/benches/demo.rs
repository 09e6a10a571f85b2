//! benchgate demo suite (criterion 0.8.2).
//!
//! | full_id                                  | shape                | extra                  |
//! |------------------------------------------|----------------------|------------------------|
//! | `parse/100`, `parse/1000`, `parse/10000` | group/value          | `Throughput::Elements` |
//! | `checksum/fnv1a`                         | group/function       | `Throughput::Bytes`    |
//! | `render_report`                          | bench_function       |                        |
//! | `normalize`                              | bench_function       |                        |
//! | `lookup/binary`, `lookup/linear`         | group/function       |                        |
//!
//! `normalize` is the one benchmark the demo's head commit (`examples/demo-crate.head.patch`)
//! slows down: it changes `demo_crate::PASSES` from 1 to 3, about ×3 per iteration. No other
//! benchmark calls `normalize`.
//!
//! `lookup/binary` and `lookup/linear` look the same needles up in the same sorted values, one
//! by binary search and one by a scan, in the same process: the demo's `benchgate.yml` claims
//! (`claims:`) that the binary search is at least 10 times faster, which benchgate checks from
//! the two benchmarks' ratio in each round.
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use demo_crate::{
    find_linear, find_sorted, fnv1a, join_numbers, normalize, parse_numbers, pseudo_random,
    render_report,
};

/// Elements `normalize` works on: 16 Ki f64 (128 KiB), about 20 µs per pass.
const NORMALIZE_LEN: usize = 16 * 1024;

fn bench_parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    for size in [100usize, 1000, 10000] {
        let text = join_numbers(&pseudo_random(size, 1, 1_000_000));
        group.throughput(Throughput::Elements(size as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), &text, |b, t| {
            b.iter(|| parse_numbers(black_box(t)))
        });
    }
    group.finish();
}

fn bench_checksum(c: &mut Criterion) {
    let bytes: Vec<u8> = pseudo_random(4096 / 8, 2, u64::MAX)
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let mut group = c.benchmark_group("checksum");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("fnv1a", |b| b.iter(|| fnv1a(black_box(&bytes))));
    group.finish();
}

fn bench_render_report(c: &mut Criterion) {
    let values = pseudo_random(1000, 3, 1_000_000);
    c.bench_function("render_report", |b| {
        b.iter(|| render_report(black_box(&values)))
    });
}

fn bench_normalize(c: &mut Criterion) {
    // normalize is idempotent, so every iteration reuses the buffer and does the same work:
    // the time per iteration is PASSES passes and nothing else.
    let mut data: Vec<f64> = pseudo_random(NORMALIZE_LEN, 4, 1_000_000)
        .into_iter()
        .map(|v| v as f64)
        .collect();
    c.bench_function("normalize", |b| b.iter(|| normalize(black_box(&mut data))));
}

/// Sorted values `lookup` searches: 4096 u64 (32 KiB, in L1/L2 cache).
const LOOKUP_LEN: usize = 4096;

fn bench_lookup(c: &mut Criterion) {
    let mut values = pseudo_random(LOOKUP_LEN, 5, 1_000_000);
    values.sort_unstable();
    // 64 needles from the values' range (almost all absent): a scan stops at the first value not
    // below its needle, so it reads half the values on average, present or not.
    let needles = pseudo_random(64, 6, 1_000_000);
    let mut group = c.benchmark_group("lookup");
    group.bench_function("binary", |b| {
        b.iter(|| {
            let values = black_box(&values);
            needles.iter().filter(|&&n| find_sorted(values, n)).count()
        })
    });
    group.bench_function("linear", |b| {
        b.iter(|| {
            let values = black_box(&values);
            needles.iter().filter(|&&n| find_linear(values, n)).count()
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_parse,
    bench_checksum,
    bench_render_report,
    bench_normalize,
    bench_lookup
);
criterion_main!(benches);
