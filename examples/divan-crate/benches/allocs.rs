//! The allocation profiler adds `max alloc:`, `alloc:`, `dealloc:` and `grow:` rows under each
//! leaf that allocates; benchgate reads the timings and skips those rows.

use divan::{black_box, AllocProfiler};

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    divan::main();
}

/// Allocates once per iteration.
#[divan::bench(args = [16, 4096])]
fn collect(n: usize) -> Vec<u64> {
    (0..black_box(n as u64)).collect()
}

/// Grows a vector from empty: alloc, grow and dealloc rows.
#[divan::bench]
fn push_grow() -> usize {
    let mut values = Vec::new();
    for i in 0..black_box(1000u32) {
        values.push(i);
    }
    values.len()
}

/// Allocates nothing: only the timing row.
#[divan::bench]
fn no_alloc() -> u64 {
    divan_crate::sum_to(black_box(50))
}
