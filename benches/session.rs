//! The agent session: one `act` on the largest gold network (the last action, given after all
//! the others), its admissible lines and hint before that action, a whole replay of that
//! network line by line with its `finish`, a new session with its opening (a gym's reset) and
//! `finish` alone, its `progress` with every action given (from nothing, for the last step,
//! and asked again), and one step
//! (an act and its undo) on a long session of dense lines, which costs what its line costs
//! however many lines came before; a clone of the session with every action given, and a
//! replay of its trajectory log from the header. What a gym environment costs: its build (the
//! benchmark and model loaded, what the first `KitchenEnv` of a process does; a session on
//! them, what every later one does), a step (the last action given and taken back) and a
//! logged step (the same, each call written to a log).

mod support;

use cookingbot::base::profile::Profile;
use cookingbot::evaluate::Evaluator;
use cookingbot::service::replay::replay;
use cookingbot::session::Session;
use cookingbot::session::admissible::Query;
use cookingbot::session::trajectory::Log;
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
    group.bench_function("env-build-session", |b| {
        b.iter(|| Session::with_evaluator(evaluator.clone(), black_box(&id)).is_ok())
    });
    let step = |s: &mut Session| {
        let ok = s.act(black_box(last)).expect("acts").ok;
        s.undo().expect("undoes");
        ok
    };
    let mut stepping = started(before);
    group.bench_function("step-last-and-undo", |b| b.iter(|| step(&mut stepping)));
    let folder = tempfile::tempdir().expect("a temporary folder");
    let steps = Log::create(&folder.path().join("steps.jsonl")).expect("the log opens");
    stepping.log_into(steps, None);
    group.bench_function("step-last-and-undo-logged", |b| {
        b.iter(|| step(&mut stepping))
    });
    let whole = started(&lines);
    group.bench_function("finish", |b| b.iter(|| whole.finish().csv));
    // The goals reached and the best dish so far, with every action of the network run: from
    // nothing (what every call cost before progress kept what it measured), after the last
    // action when it was asked after every other (the cost of a step), and asked again.
    group.bench_function("progress-from-nothing-after-last", |b| {
        b.iter_batched_ref(
            || started(&lines),
            |s| s.progress().expect("the gold runs").goals_reached,
            BatchSize::LargeInput,
        )
    });
    group.bench_function("progress-step-last", |b| {
        b.iter_batched_ref(
            || {
                let mut s = started(before);
                s.progress().expect("the gold runs");
                s.act(last).expect("acts");
                s
            },
            |s| s.progress().expect("the gold runs").goals_reached,
            BatchSize::LargeInput,
        )
    });
    whole.progress().expect("the gold runs");
    group.bench_function("progress-again-after-last", |b| {
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
    // A fork of the session with every action given (`Kitchen.clone()`).
    group.bench_function("clone-after-last", |b| b.iter(|| black_box(&whole).clone()));
    // A log of the whole network and its finish, run again from its header: the benchmark
    // and model loaded, every line given, every record compared.
    let log = folder.path().join("largest.jsonl");
    let mut logged = Session::with_evaluator(evaluator.clone(), &id).expect("a gold recipe");
    logged.log_into(Log::create(&log).expect("the log opens"), None);
    for line in &lines {
        logged.act(line).expect("acts");
    }
    logged.finish();
    group.sample_size(10);
    group.bench_function("replay-log", |b| {
        b.iter(|| replay(black_box(&log)).expect("the log reads").identical)
    });
    group.bench_function("env-build-evaluator", |b| {
        b.iter(|| {
            let benchmark = support::benchmark(profile);
            Evaluator::with(cookingbot::simulation::Model::builtin(profile), benchmark)
                .benchmark
                .recipes
                .len()
        })
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
