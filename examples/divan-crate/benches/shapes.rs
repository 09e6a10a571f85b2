//! Every row shape of divan's tree that benchgate's parser reads, without allocation rows.

use std::time::Duration;

use divan::counter::{BytesCount, ItemsCount};
use divan::{black_box, Bencher};

fn main() {
    divan::main();
}

/// A top-level leaf in nanoseconds.
#[divan::bench]
fn add() -> u64 {
    black_box(2u64) + black_box(3u64)
}

/// Arguments: one leaf per argument under the bench's own node (`sum_to/10`).
#[divan::bench(args = [10, 1000, 100000])]
fn sum_to(n: u64) -> u64 {
    divan_crate::sum_to(n)
}

/// Registers no function for its first argument: divan prints that leaf's name without columns
/// (and warns on stderr), as a bench that skips some inputs does.
#[divan::bench(args = [1, 64])]
fn only_large(bencher: Bencher, n: u64) {
    if n > 1 {
        bencher.bench(|| divan_crate::sum_to(black_box(n)));
    }
}

/// Never run: divan prints it as `(ignored)`.
#[divan::bench(ignore)]
fn ignored() -> u64 {
    black_box(1)
}

mod checksum {
    use super::*;

    /// Byte throughput (`B/s` … `GB/s` row under the timings), per argument.
    #[divan::bench(args = [64, 65536])]
    fn fletcher16(bencher: Bencher, len: usize) {
        let data = vec![7u8; len];
        bencher
            .counter(BytesCount::new(len))
            .bench(|| divan_crate::fletcher16(black_box(&data)));
    }

    /// Item throughput (`item/s` row) on a plain leaf.
    #[divan::bench]
    fn parse_csv(bencher: Bencher) {
        let text = (0..100).map(|n| n.to_string()).collect::<Vec<_>>().join(",");
        bencher
            .counter(ItemsCount::new(100usize))
            .bench(|| divan_crate::parse_csv(black_box(&text)));
    }
}

mod nested {
    mod sorting {
        use divan::black_box;

        /// Generic types: one leaf per type (`sorted/u8`), each with arguments.
        #[divan::bench(types = [u8, u64], args = [100, 10000])]
        fn sorted<T: TryFrom<usize> + Ord + Clone>(n: usize) -> usize {
            let values: Vec<T> = (0..n)
                .rev()
                .filter_map(|i| T::try_from(i % 200).ok())
                .collect();
            divan_crate::sorted(black_box(&values)).len()
        }
    }

    /// Thread counts: `t=1` and `t=2` leaves under the bench.
    #[divan::bench(threads = [1, 2])]
    fn contended() -> u64 {
        divan_crate::sum_to(divan::black_box(200))
    }
}

mod waits {
    use super::*;

    /// Milliseconds.
    #[divan::bench(sample_count = 10, sample_size = 1)]
    fn two_millis() {
        divan_crate::wait(Duration::from_millis(2));
    }

    /// Seconds: three samples of one iteration.
    #[divan::bench(sample_count = 3, sample_size = 1)]
    fn one_second() {
        divan_crate::wait(Duration::from_millis(1050));
    }
}
