//! Small, deterministic workloads for the benchgate example suite.

/// Naive recursive Fibonacci (deliberately slow).
pub fn fib(n: u64) -> u64 {
    match n {
        0 => 0,
        1 => 1,
        _ => fib(n - 1) + fib(n - 2),
    }
}

/// Sum of a slice with wrapping arithmetic.
pub fn sum_vec(v: &[u64]) -> u64 {
    v.iter().fold(0u64, |acc, x| acc.wrapping_add(*x))
}

/// Deterministic pseudo-random input (xorshift64), no external RNG.
pub fn pseudo_random(len: usize, seed: u64) -> Vec<u64> {
    let mut x = seed.max(1);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

/// FNV-1a over bytes.
pub fn fnv1a(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in data {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Number of set bits in a byte slice.
pub fn popcount(data: &[u8]) -> u32 {
    data.iter().map(|b| b.count_ones()).sum()
}

/// Count ASCII lines and bytes (a "parse" of records).
pub fn count_lines(data: &[u8]) -> (usize, usize) {
    // With the demo-slowdown feature: the same answer from three
    // passes over the input, a ×3 slowdown far larger than any machine's noise.
    #[cfg(feature = "demo-slowdown")]
    let passes = 3;
    #[cfg(not(feature = "demo-slowdown"))]
    let passes = 1;
    let mut lines = 0;
    for _ in 0..passes {
        // black_box on the result too, or the unused passes are optimized away.
        lines = std::hint::black_box(std::hint::black_box(data).iter().filter(|b| **b == b'\n').count());
    }
    (lines, data.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workloads() {
        assert_eq!(fib(20), 6765);
        assert_eq!(sum_vec(&[1, 2, 3]), 6);
        assert_eq!(pseudo_random(4, 1), pseudo_random(4, 1));
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(popcount(&[0xff, 0x01]), 9);
        assert_eq!(count_lines(b"a\nb\n"), (2, 4));
    }
}
