//! benchgate example suite (criterion 0.8.2).
//!
//! Covers every benchmark-id shape and throughput variant that benchgate's
//! Criterion adapter must understand:
//!
//! | full_id                                   | shape                    | extra                       |
//! |-------------------------------------------|--------------------------|-----------------------------|
//! | `fib 20`                                  | bench_function           | id with a space             |
//! | `sum_vec/1000`, `sum_vec/10000`           | group/value              | `Throughput::Elements`      |
//! | `sort/unstable/1000`                      | group/function/value     | `iter_batched`              |
//! | `flat/fnv1a/65536`                        | group/function/value     | `SamplingMode::Flat`, Bytes |
//! | `throughput/bytes_decimal`                | group/function           | `Throughput::BytesDecimal`  |
//! | `throughput/bits`                         | group/function           | `Throughput::Bits`          |
//! | `throughput/elements_and_bytes`           | group/function           | `Throughput::ElementsAndBytes` |
//! | ``evil|name `tick` <b>x</b> @someone #12`` | bench_function          | hostile characters          |
//! | `bidi \u{202E}txt.exe\u{200B} zero-width` | bench_function          | bidi override, zero-width   |
//! | `a_very_long_benchmark_name_…_0123456789` | bench_function           | 116 bytes: truncated dir/title |
use std::hint::black_box;

use criterion::{
    criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, SamplingMode, Throughput,
};
use tiny_bench::{count_lines, fib, fnv1a, popcount, pseudo_random, sum_vec};

/// Id with characters that must be escaped when rendered (Markdown table pipe, backticks,
/// HTML, an @mention, an issue reference and a `/` inside `</b>`).
const HOSTILE_ID: &str = "evil|name `tick` <b>x</b> @someone #12";

/// Id with a right-to-left override (U+202E) and a zero-width space (U+200B).
const BIDI_ID: &str = "bidi \u{202E}txt.exe\u{200B} zero-width";

/// Id longer than Criterion's limits: the directory name is cut to 64 bytes per component and
/// the title to 100 bytes plus `...`; `full_id` keeps everything.
const LONG_ID: &str = "a_very_long_benchmark_name_that_goes_on_and_on_to_exceed_criterion_limits_for_titles_and_directory_names_0123456789";

fn bench_fib(c: &mut Criterion) {
    c.bench_function("fib 20", |b| b.iter(|| fib(black_box(20))));
}

fn bench_sum_vec(c: &mut Criterion) {
    let mut group = c.benchmark_group("sum_vec");
    for len in [1000usize, 10000] {
        let data = pseudo_random(len, 42);
        group.throughput(Throughput::Elements(len as u64));
        group.bench_with_input(BenchmarkId::from_parameter(len), &data, |b, d| {
            b.iter(|| sum_vec(black_box(d)))
        });
    }
    group.finish();
}

fn bench_sort(c: &mut Criterion) {
    let mut group = c.benchmark_group("sort");
    let data = pseudo_random(1000, 7);
    group.bench_with_input(BenchmarkId::new("unstable", 1000), &data, |b, d| {
        b.iter_batched(
            || d.clone(),
            |mut v| {
                v.sort_unstable();
                v
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn bench_flat(c: &mut Criterion) {
    let mut group = c.benchmark_group("flat");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    let data: Vec<u8> = pseudo_random(65536 / 8, 3)
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.bench_with_input(BenchmarkId::new("fnv1a", data.len()), &data, |b, d| {
        b.iter(|| fnv1a(black_box(d)))
    });
    group.finish();
}

fn bench_throughput_variants(c: &mut Criterion) {
    let bytes: Vec<u8> = pseudo_random(4096 / 8, 11)
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let text: Vec<u8> = (0..256)
        .flat_map(|i| format!("record {i:04},value,{}\n", i * 7).into_bytes())
        .collect();
    let lines = count_lines(&text).0 as u64;

    let mut group = c.benchmark_group("throughput");
    group.throughput(Throughput::BytesDecimal(bytes.len() as u64));
    group.bench_function("bytes_decimal", |b| b.iter(|| fnv1a(black_box(&bytes))));
    group.throughput(Throughput::Bits(8 * bytes.len() as u64));
    group.bench_function("bits", |b| b.iter(|| popcount(black_box(&bytes))));
    group.throughput(Throughput::ElementsAndBytes {
        elements: lines,
        bytes: text.len() as u64,
    });
    group.bench_function("elements_and_bytes", |b| {
        b.iter(|| count_lines(black_box(&text)))
    });
    group.finish();
}

fn bench_hostile(c: &mut Criterion) {
    c.bench_function(HOSTILE_ID, |b| b.iter(|| fib(black_box(10))));
    c.bench_function(BIDI_ID, |b| b.iter(|| fib(black_box(10))));
    c.bench_function(LONG_ID, |b| b.iter(|| fib(black_box(10))));
}

criterion_group!(
    benches,
    bench_fib,
    bench_sum_vec,
    bench_sort,
    bench_flat,
    bench_throughput_variants,
    bench_hostile
);
criterion_main!(benches);
