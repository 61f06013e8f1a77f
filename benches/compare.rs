//! `compare` end to end — loading the evaluator, scoring every system's 30 gold networks,
//! 1000 bootstrap resamples and 10,000 randomization trials per metric — on 2 and 10 systems.
//! The goal: under 1 s for 10 systems on one core (run with RAYON_NUM_THREADS=1). The
//! systems are copies of one, so after the first every network is a `Memo` hit: this measures
//! loading, one scoring, and the statistics of every system (docs/compare.md).

mod support;

use cookingbot::base::profile::Profile;
use cookingbot::benchmark::DataChoice;
use cookingbot::service::comparison::{self, CompareFormat, CompareOptions};
use cookingbot::service::context::DataContext;
use cookingbot::service::outcome::Exit;
use cookingbot::service::scoring::{EvaluateOptions, STDOUT};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;

fn options(systems: usize) -> CompareOptions {
    let profile = Profile::R2024;
    let data = support::data_dir(profile);
    let gold = data.join("data/gold-standard-solutions/meaning-only");
    CompareOptions {
        systems: vec![gold; systems],
        evaluation: EvaluateOptions::scoring(
            DataContext {
                profile,
                benchmark: Some(DataChoice::Folder(data)),
                kitchen: None,
                offline: true,
                ..DataContext::default()
            },
            comparison::default_metrics(),
        ),
        output: PathBuf::from(STDOUT),
        format: CompareFormat::Text,
        bootstrap: 1000,
        trials: comparison::RANDOMIZATION_TRIALS,
        seed: 12345,
        dump_resamples: None,
    }
}

fn compare_systems(c: &mut Criterion) {
    let mut group = c.benchmark_group("compare/gold-30/bootstrap-1000");
    group.sample_size(10);
    for systems in [2, 10] {
        let opts = options(systems);
        group.bench_function(format!("{systems}-systems"), |b| {
            b.iter(|| {
                let outcome = comparison::run(&opts, &mut std::io::sink(), &mut std::io::sink());
                assert!(matches!(outcome, Ok(Exit::Success)));
            })
        });
    }
    group.finish();
}

criterion_group!(benches, compare_systems);
criterion_main!(benches);
