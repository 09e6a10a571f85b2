//! tiny-bench's suite restricted to the API of older Criterion versions (0.3.x … 0.5.x).
//!
//! Built once per version by the manifests in `../criterion-*/`. APIs that appeared later are
//! behind features the manifests enable when the version has them:
//! `sampling_mode` (`SamplingMode::Flat`, 0.3.3+), `bytes_decimal` (`Throughput::BytesDecimal`,
//! 0.4.0+). `Throughput::Bits` (0.7) and `Throughput::ElementsAndBytes` (0.8) are only in
//! `../../tiny-bench/benches/tiny.rs`.
use std::hint::black_box;

#[cfg(feature = "sampling_mode")]
use criterion::SamplingMode;
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use tiny_bench::{fib, fnv1a, pseudo_random, sum_vec};

const HOSTILE_ID: &str = "evil|name `tick` <b>x</b> @someone #12";

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

fn bytes(len: usize, seed: u64) -> Vec<u8> {
    pseudo_random(len / 8, seed)
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect()
}

fn bench_flat(c: &mut Criterion) {
    let mut group = c.benchmark_group("flat");
    #[cfg(feature = "sampling_mode")]
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    let data = bytes(65536, 3);
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.bench_with_input(BenchmarkId::new("fnv1a", data.len()), &data, |b, d| {
        b.iter(|| fnv1a(black_box(d)))
    });
    group.finish();
}

#[cfg(feature = "bytes_decimal")]
fn bench_bytes_decimal(c: &mut Criterion) {
    let data = bytes(4096, 11);
    let mut group = c.benchmark_group("throughput");
    group.throughput(Throughput::BytesDecimal(data.len() as u64));
    group.bench_function("bytes_decimal", |b| b.iter(|| fnv1a(black_box(&data))));
    group.finish();
}

#[cfg(not(feature = "bytes_decimal"))]
fn bench_bytes_decimal(_: &mut Criterion) {}

fn bench_hostile(c: &mut Criterion) {
    c.bench_function(HOSTILE_ID, |b| b.iter(|| fib(black_box(10))));
}

criterion_group!(
    benches,
    bench_fib,
    bench_sum_vec,
    bench_sort,
    bench_flat,
    bench_bytes_decimal,
    bench_hostile
);
criterion_main!(benches);
