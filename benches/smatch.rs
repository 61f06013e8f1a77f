//! Smatch timings: every gold network against itself and without one action (the replay of
//! smatch.py's search), the largest pair, and generated chains
//! of 1k, 10k and 100k actions (the limit) against a gold network, to show the cost is linear
//! in the predicted network's size; and exact mode on perturbed gold networks and near-miss
//! pairs.

use cookingbot::base::profile::Profile;
use cookingbot::language::ast::{Arg, Predicate};
use cookingbot::metrics::smatch::{MAX_ACTIONS, SmatchConfig, smatch};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};

mod support;

/// The recipes of a solution file, read with the project's parser.
fn read(path: &Path) -> Vec<(String, Vec<Predicate>)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    cookingbot::language::parse::parse(&text)
        .file
        .recipes
        .into_iter()
        .map(|r| (r.id, r.predicates))
        .collect()
}

fn bench(c: &mut Criterion) {
    let data = support::data_dir(Profile::R2024);
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(data.join("data/gold-standard-solutions/meaning-only"))
            .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
            .unwrap_or_default();
    files.sort();
    let gold: Vec<(String, Vec<Predicate>)> = files.iter().flat_map(|f| read(f)).collect();
    let cfg = SmatchConfig::default();
    c.bench_function("smatch/30 gold networks against themselves", |b| {
        b.iter(|| {
            for (_, ps) in &gold {
                black_box(smatch(ps, ps, &cfg));
            }
        })
    });
    // The replay of smatch.py's search where it has work to do: every gold network without
    // its middle action against the gold network.
    let dropped: Vec<(Vec<Predicate>, &Vec<Predicate>)> = gold
        .iter()
        .map(|(_, ps)| {
            let mut test = ps.clone();
            test.remove(ps.len() / 2);
            (test, ps)
        })
        .collect();
    c.bench_function("smatch/30 gold networks without their middle action", |b| {
        b.iter(|| {
            for (test, ps) in &dropped {
                black_box(smatch(test, ps, &cfg));
            }
        })
    });
    let reference = read(&data.join("../spec/reference-gold-networks.solution"));
    let find = |list: &[(String, Vec<Predicate>)], recipe: &str| {
        list.iter()
            .find(|(id, _)| id == recipe)
            .map(|(_, p)| p.clone())
            .unwrap_or_default()
    };
    let croutons = "croutons-vinegar-salad";
    let (file_net, embedded) = (find(&gold, croutons), find(&reference, croutons));
    c.bench_function("smatch/croutons-vinegar-salad file vs embedded gold", |b| {
        b.iter(|| black_box(smatch(&file_net, &embedded, &cfg)))
    });
    let afghan = find(&gold, "afghan-biscuits");
    exact_mode(c, &gold, (&file_net, &embedded), &afghan);

    let mut group = c.benchmark_group("smatch/chain against afghan-biscuits");
    group.sampling_mode(SamplingMode::Flat);
    for n in [1_000, 10_000, MAX_ACTIONS] {
        let chain = cookingbot::language::parse::parse(&support::chain(n))
            .file
            .recipes[0]
            .predicates
            .clone();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(format!("actions-{n}"), |b| {
            b.iter(|| black_box(smatch(&chain, &afghan, &cfg)).matched)
        });
    }
    group.finish();
}

/// A gold network changed deterministically, given its index.
type Perturbation = dyn Fn(usize, &[Predicate]) -> Vec<Predicate>;

/// Exact mode (one replayed climb, as a user of `--smatch-exact` would compare): every gold
/// network against its perturbations, generated here from the data (lines permuted, variables
/// renamed, one line dropped), each proven by the alignment; near-miss pairs (every gold network
/// against the next recipe of its family) under a 20-node budget, where branch and bound runs
/// without proving most of them; the croutons-vinegar-salad pair of files; and a 2,000-action
/// chain against afghan-biscuits at the root alone, where the work limit, not the node budget,
/// ends the search.
fn exact_mode(
    c: &mut Criterion,
    gold: &[(String, Vec<Predicate>)],
    croutons: (&[Predicate], &[Predicate]),
    afghan: &[Predicate],
) {
    let exact = SmatchConfig {
        exact: true,
        runs: 1,
        ..SmatchConfig::default()
    };
    fn renamed(ps: &[Predicate]) -> Vec<Predicate> {
        let var = |a: &Arg| match a {
            Arg::Var(v) => Arg::Var(format!("renamed-{v}").into()),
            other => other.clone(),
        };
        let rename = |p: &Predicate| Predicate {
            args: p.args.iter().map(var).collect(),
            ..p.clone()
        };
        ps.iter().map(rename).collect()
    }
    let perturbations: [(&str, &Perturbation); 3] = [
        ("permuted", &|n, ps| {
            let mut out = ps.to_vec();
            out.reverse();
            out.rotate_left(n % ps.len());
            out
        }),
        ("renamed", &|_, ps| renamed(ps)),
        ("dropped line", &|n, ps| {
            let mut out = ps.to_vec();
            out.remove(n % ps.len());
            out
        }),
    ];
    let mut group = c.benchmark_group("smatch-exact");
    group.sampling_mode(SamplingMode::Flat);
    for (kind, perturb) in perturbations {
        let pairs: Vec<(Vec<Predicate>, &Vec<Predicate>)> = gold
            .iter()
            .enumerate()
            .map(|(n, (_, ps))| (perturb(n, ps), ps))
            .collect();
        group.bench_function(format!("30 gold networks {kind}"), |b| {
            b.iter(|| {
                for (test, ps) in &pairs {
                    black_box(smatch(test, ps, &exact));
                }
            })
        });
    }
    let salad = |id: &str| ["salad", "slaw", "dill"].iter().any(|k| id.contains(k));
    let near_miss: Vec<(&Vec<Predicate>, &Vec<Predicate>)> = gold
        .iter()
        .enumerate()
        .filter_map(|(n, (id, ps))| {
            let next = gold.iter().cycle().skip(n + 1).take(gold.len() - 1);
            let mut next = next.filter(|(other, _)| salad(other) == salad(id));
            next.next().map(|(_, other)| (ps, other))
        })
        .collect();
    let budget = SmatchConfig {
        exact_budget: 20,
        ..exact.clone()
    };
    group.bench_function("30 near-miss pairs, 20-node budget", |b| {
        b.iter(|| {
            for (test, other) in &near_miss {
                black_box(smatch(test, other, &budget));
            }
        })
    });
    group.bench_function("croutons-vinegar-salad file vs embedded gold", |b| {
        b.iter(|| black_box(smatch(croutons.0, croutons.1, &exact)))
    });
    let chain = cookingbot::language::parse::parse(&support::chain(2_000))
        .file
        .recipes[0]
        .predicates
        .clone();
    let root = SmatchConfig {
        exact_budget: 1,
        ..exact.clone()
    };
    group.bench_function("2,000-action chain vs afghan-biscuits, root only", |b| {
        b.iter(|| black_box(smatch(&chain, afghan, &root)))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
