//! Memory per action on the longest chains of kitchen states: `fetch` of whisks (a
//! `failed-object` bound for every action once the kitchen has none left) and `preheat-oven`
//! (a changed oven in every kitchen state), each of `MAX_ACTIONS` actions. The measurement is
//! the peak of the bytes the run holds on the heap (a counting allocator), not time: criterion
//! reports it per action, the figure docs/performance.md gives against its 2 KB target.

mod support;

use cookingbot::base::profile::Profile;
use cookingbot::simulation::Model;
use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes held and their peak.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let held = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(held, Ordering::Relaxed);
        // SAFETY: the caller's layout is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` was allocated by `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak heap bytes held above what was held when the measurement started.
struct PeakBytes;

impl Measurement for PeakBytes {
    type Intermediate = usize;
    type Value = usize;

    fn start(&self) -> usize {
        let held = HELD.load(Ordering::Relaxed);
        PEAK.store(held, Ordering::Relaxed);
        held
    }

    fn end(&self, before: usize) -> usize {
        PEAK.load(Ordering::Relaxed) - before
    }

    fn add(&self, a: &usize, b: &usize) -> usize {
        a + b
    }

    fn zero(&self) -> usize {
        0
    }

    fn to_f64(&self, value: &usize) -> f64 {
        *value as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &Bytes
    }
}

/// Bytes, in kB as the docs give them.
struct Bytes;

impl ValueFormatter for Bytes {
    fn scale_values(&self, _typical: f64, values: &mut [f64]) -> &'static str {
        values.iter_mut().for_each(|v| *v /= 1e3);
        "kB"
    }

    fn scale_throughputs(
        &self,
        _typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        if let Throughput::Elements(n) = throughput {
            values.iter_mut().for_each(|v| *v /= *n as f64);
        }
        "B/action"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "B"
    }
}

fn bench(c: &mut Criterion<PeakBytes>) {
    let model = Model::builtin(Profile::R2024);
    // Each run's own peak, summed: criterion divides by the runs.
    support::bench_kitchen_chains(c, "memory", |b, recipe| {
        b.iter_custom(|runs| {
            (0..runs)
                .map(|_| {
                    let before = PeakBytes.start();
                    black_box(model.execute(black_box(recipe)).expect("runs"));
                    PeakBytes.end(before)
                })
                .sum()
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(PeakBytes);
    targets = bench
}
criterion_main!(benches);
