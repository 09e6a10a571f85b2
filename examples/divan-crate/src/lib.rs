//! Functions whose costs span nanoseconds to a second, benchmarked by benches/*.rs with divan.

use std::time::Duration;

/// Sums `1..=n` one step at a time, so the cost grows with `n`.
pub fn sum_to(n: u64) -> u64 {
    (1..=n).fold(0u64, |acc, x| acc.wrapping_add(std::hint::black_box(x)))
}

/// Fletcher-16 checksum of `data`: a byte-throughput workload.
pub fn fletcher16(data: &[u8]) -> u16 {
    let (mut a, mut b) = (0u16, 0u16);
    for &byte in data {
        a = (a + u16::from(byte)) % 255;
        b = (b + a) % 255;
    }
    (b << 8) | a
}

/// Sorts a copy of `values`.
pub fn sorted<T: Ord + Clone>(values: &[T]) -> Vec<T> {
    let mut copy = values.to_vec();
    copy.sort_unstable();
    copy
}

/// Parses comma-separated integers.
pub fn parse_csv(text: &str) -> Vec<i64> {
    text.split(',').filter_map(|field| field.trim().parse().ok()).collect()
}

/// Sleeps for `duration`: a bench in milliseconds or seconds without burning CPU.
pub fn wait(duration: Duration) {
    std::thread::sleep(duration);
}
