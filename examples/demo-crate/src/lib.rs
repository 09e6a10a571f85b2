//! Small, deterministic, dependency-free workloads for benchgate's demo crate.
//!
//! `benches/demo.rs` measures them with Criterion and `src/bin/demo-cli.rs` wraps them in a
//! command-line tool for hyperfine and golden-output checks.

use std::fmt::Write as _;

/// How many passes [`normalize`] makes over its data.
///
/// benchgate's demo "head" commit (`examples/demo-crate.head.patch`) changes this 1 → 3, so the
/// `normalize` benchmark, and only it, gets about three times slower.
pub const PASSES: usize = 1;

/// Parses a comma-separated list of unsigned integers, e.g. `"3, 1,4"` → `[3, 1, 4]`.
///
/// Whitespace around each item is ignored; empty or invalid items are skipped.
pub fn parse_numbers(text: &str) -> Vec<u64> {
    text.split(',')
        .filter_map(|item| item.trim().parse().ok())
        .collect()
}

/// Joins numbers into the comma-separated form that [`parse_numbers`] reads.
pub fn join_numbers(values: &[u64]) -> String {
    let mut out = String::with_capacity(values.len() * 8);
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write!(out, "{v}").expect("writing to a String cannot fail");
    }
    out
}

/// `count` deterministic pseudo-random numbers below `bound` (a 64-bit LCG, no external RNG).
pub fn pseudo_random(count: usize, seed: u64, bound: u64) -> Vec<u64> {
    let mut x = seed;
    (0..count)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) % bound.max(1)
        })
        .collect()
}

/// How many bytes [`fnv1a`] hashes per block. The hash does not depend on it; the work does, a
/// little: each block costs a dozen instructions besides its bytes.
///
/// benchgate's demo "head" commit (`examples/demo-crate.head.patch`) changes this 4096 → 128, so
/// hashing 4 KiB takes about 3 % more instructions and no more time (see [`fnv1a`]).
pub const HASH_BLOCK: usize = 4096;

/// 64-bit FNV-1a hash of a byte slice, one [`HASH_BLOCK`] after another.
///
/// Each byte waits for the previous byte's multiply, so the loop runs at the multiplier's
/// latency, and a few more instructions per block run in that wait without taking time on an
/// out-of-order CPU: only an instruction count sees them.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .chunks(HASH_BLOCK)
        .fold(0xcbf2_9ce4_8422_2325, |h, block| {
            block.iter().fold(h, |h, b| {
                (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
            })
        })
}

/// A short plain-text summary of `values`: count, sum, min, max and mean, one per line.
pub fn render_report(values: &[u64]) -> String {
    let sum: u64 = values.iter().fold(0, |acc, v| acc.wrapping_add(*v));
    let min = values.iter().min().copied().unwrap_or(0);
    let max = values.iter().max().copied().unwrap_or(0);
    let mean = if values.is_empty() {
        0.0
    } else {
        sum as f64 / values.len() as f64
    };
    format!(
        "count: {}\nsum: {sum}\nmin: {min}\nmax: {max}\nmean: {mean:.3}\n",
        values.len()
    )
}

/// Min-max normalizes `data` in place to `[0, 1]`, making [`PASSES`] passes over it.
///
/// A slice whose values are all equal becomes all zeros. The normalization is idempotent (the
/// minimum maps to exactly 0.0 and the maximum to exactly 1.0), so the extra passes cost time
/// but never change the result.
pub fn normalize(data: &mut [f64]) {
    for _ in 0..PASSES {
        let (min, max) = data
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                (lo.min(x), hi.max(x))
            });
        let range = max - min;
        if range > 0.0 {
            data.iter_mut().for_each(|x| *x = (*x - min) / range);
        } else {
            data.fill(0.0);
        }
    }
}

/// Whether `needle` is in `sorted` (ascending), by binary search: about log₂ n comparisons.
///
/// `benches/demo.rs` times it against [`find_linear`] on the same sorted values, in one process,
/// and the demo's `benchgate.yml` claims (`claims:`) that it is at least 10 times faster.
pub fn find_sorted(sorted: &[u64], needle: u64) -> bool {
    sorted.binary_search(&needle).is_ok()
}

/// Whether `needle` is in `sorted` (ascending), by scanning from the start until a value is not
/// below it: up to n comparisons, n / 2 on average for a needle drawn from the values' range.
pub fn find_linear(sorted: &[u64], needle: u64) -> bool {
    sorted
        .iter()
        .find(|&&value| value >= needle)
        .is_some_and(|&value| value == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_join_round_trip() {
        assert_eq!(parse_numbers(" 3, 1,x,,4 "), [3, 1, 4]);
        let values = pseudo_random(100, 7, 1_000_000);
        assert_eq!(parse_numbers(&join_numbers(&values)), values);
        assert!(values.iter().all(|v| *v < 1_000_000));
    }

    #[test]
    fn checksum_and_report() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(
            render_report(&[1, 2, 3]),
            "count: 3\nsum: 6\nmin: 1\nmax: 3\nmean: 2.000\n"
        );
        assert_eq!(
            render_report(&[]),
            "count: 0\nsum: 0\nmin: 0\nmax: 0\nmean: 0.000\n"
        );
    }

    #[test]
    fn normalize_is_idempotent() {
        let mut data = vec![2.0, 4.0, 3.0];
        normalize(&mut data);
        assert_eq!(data, [0.0, 1.0, 0.5]);
        normalize(&mut data);
        assert_eq!(data, [0.0, 1.0, 0.5]);
        let mut flat = vec![5.0; 3];
        normalize(&mut flat);
        assert_eq!(flat, [0.0; 3]);
    }

    #[test]
    fn both_lookups_agree() {
        let mut values = pseudo_random(4096, 5, 1_000_000);
        values.sort_unstable();
        for needle in pseudo_random(500, 6, 1_000_000)
            .into_iter()
            .chain(values.clone())
        {
            assert_eq!(find_sorted(&values, needle), find_linear(&values, needle));
        }
        assert!(find_linear(&values, values[0]) && find_sorted(&values, values[4095]));
        assert!(!find_linear(&[], 1) && !find_sorted(&[], 1));
    }
}
