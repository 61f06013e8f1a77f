//! The agent session: one `act` on the largest gold network (the last action, given after all
//! the others), its admissible lines and hint before that action, a whole replay of that
//! network line by line with its `finish`, a new session with its opening (a gym's reset) and
//! `finish` alone, its `progress` with every action given, and one step
//! (an act and its undo) on a long session of dense lines, which costs what its line costs
//! however many lines came before.

mod support;

use cookingbot::base::profile::Profile;
use cookingbot::evaluate::Evaluator;
use cookingbot::service::session::Session;
use cookingbot::service::session::admissible::Query;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;

fn bench(c: &mut Criterion) {
    let profile = Profile::R2024;
    let benchmark = support::benchmark(profile);
    let evaluator = Arc::new(Evaluator::with(
        cookingbot::simulation::Model::builtin(profile),
        benchmark,
    ));
    let largest = evaluator
        .benchmark
        .recipes
        .iter()
        .max_by_key(|g| g.network.predicates.len())
        .expect("30 gold networks");
    let id = largest.id.clone();
    let lines: Vec<String> = largest
        .network
        .predicates
        .iter()
        .map(|p| p.to_string())
        .collect();
    let (last, before) = lines.split_last().expect("actions");
    let started = |given: &[String]| {
        let mut s = Session::with_evaluator(evaluator.clone(), &id).expect("a gold recipe");
        for line in given {
            s.act(line).expect("acts");
        }
        s
    };
    let mut group = c.benchmark_group(format!("session/{id}-{}-actions", lines.len()));
    group.bench_function("act-last", |b| {
        b.iter_batched_ref(
            || started(before),
            |s| s.act(black_box(last)).expect("acts").ok,
            BatchSize::LargeInput,
        )
    });
    group.bench_function("replay-and-finish", |b| {
        b.iter(|| started(black_box(&lines)).finish().csv)
    });
    // What a gym's `reset` does (a new session and its opening) and `finish` alone, on the
    // network whole.
    group.bench_function("reset", |b| b.iter(|| started(&[]).opening().places.len()));
    // The goals reached and the best dish so far, asked after every step: at its dearest,
    // with every action of the network run.
    let whole = started(&lines);
    group.bench_function("finish", |b| b.iter(|| whole.finish().csv));
    group.bench_function("progress-after-last", |b| {
        b.iter(|| whole.progress().expect("the gold runs").goals_reached)
    });
    // The lines that run after the last action but one, as an agent is shown them (the
    // default 50), and the gold's next action among its primitive's.
    let before_last = started(before);
    group.bench_function("admissible-before-last", |b| {
        b.iter(|| before_last.admissible(black_box(&Query::default())).len())
    });
    group.bench_function("hint-before-last", |b| {
        b.iter(|| before_last.hint().map(|h| h.action))
    });
    group.finish();
    // 1,350 unknown names a line: 2,700 errors each, the lines before never validated again.
    let dense = format!("(fetch ?b ?c ?ks0 {})", vec!["zq"; 1_350].join(" "));
    for given in [10, 300] {
        let mut session = started(&vec![dense.clone(); given]);
        c.bench_function(&format!("session/dense-step-after-{given}-lines"), |b| {
            b.iter(|| {
                let seen = session.act(black_box(&dense)).expect("acts");
                session.undo().expect("undoes");
                seen.diagnostics.len()
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
