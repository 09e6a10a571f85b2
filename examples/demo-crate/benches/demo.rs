//! benchgate demo suite (criterion 0.8.2).
//!
//! | full_id                                  | shape                | extra                  |
//! |------------------------------------------|----------------------|------------------------|
//! | `parse/100`, `parse/1000`, `parse/10000` | group/value          | `Throughput::Elements` |
//! | `checksum/fnv1a`                         | group/function       | `Throughput::Bytes`    |
//! | `render_report`                          | bench_function       |                        |
//! | `normalize`                              | bench_function       |                        |
//!
//! `normalize` is the one benchmark the demo's head commit (`examples/demo-crate.head.patch`)
//! slows down: it changes `demo_crate::PASSES` from 1 to 3, about ×3 per iteration. No other
//! benchmark calls `normalize`.
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use demo_crate::{fnv1a, join_numbers, normalize, parse_numbers, pseudo_random, render_report};

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

criterion_group!(
    benches,
    bench_parse,
    bench_checksum,
    bench_render_report,
    bench_normalize
);
criterion_main!(benches);
