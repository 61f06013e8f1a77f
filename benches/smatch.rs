//! Smatch timings: every gold network against itself, and the largest pair.

use cookingbot::language::ast::{Arg, Predicate, Span};
use cookingbot::metrics::smatch::{SmatchConfig, smatch};
use cookingbot::number::Number;
use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use std::hint::black_box;

const GOLD_DIR: &str = "/work/shared/benchmark/data/gold-standard-solutions/meaning-only";
const REFERENCE_GOLD: &str = "/work/shared/spec/reference-gold-networks.solution";

/// Flat one-predicate-per-line reader (the benchmark files need nothing more).
fn read(path: &str) -> Vec<(String, Vec<Predicate>)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out: Vec<(String, Vec<Predicate>)> = Vec::new();
    for line in text.lines() {
        let line = line.split(';').next().unwrap_or("").trim();
        if let Some(id) = line.strip_prefix('#') {
            out.push((id.trim().to_lowercase(), Vec::new()));
        } else if let Some(body) = line.strip_prefix('(') {
            let mut toks = body.trim_end_matches(')').split_whitespace();
            let name = toks.next().unwrap_or("").to_lowercase();
            let args: Vec<Arg> = toks
                .map(
                    |t| match (t.strip_prefix('?'), t.parse::<i64>(), t.parse::<f32>()) {
                        (Some(v), _, _) => Arg::Var(v.to_lowercase()),
                        (_, Ok(i), _) => Arg::Num(Number::int(i)),
                        (_, _, Ok(f)) => Arg::Num(Number::float(f)),
                        _ => Arg::Sym(t.to_lowercase()),
                    },
                )
                .collect();
            let n = args.len();
            let p = Predicate {
                name,
                args,
                span: Span::default(),
                name_span: Span::default(),
                arg_spans: vec![Span::default(); n],
            };
            if let Some((_, ps)) = out.last_mut() {
                ps.push(p);
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut files: Vec<String> = std::fs::read_dir(GOLD_DIR)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path().display().to_string())
                .collect()
        })
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
    let reference = read(REFERENCE_GOLD);
    let find = |list: &[(String, Vec<Predicate>)]| {
        list.iter()
            .find(|(id, _)| id == "croutons-vinegar-salad")
            .map(|(_, p)| p.clone())
            .unwrap_or_default()
    };
    let (file_net, embedded) = (find(&gold), find(&reference));
    c.bench_function("smatch/croutons-vinegar-salad file vs embedded gold", |b| {
        b.iter(|| black_box(smatch(&file_net, &embedded, &cfg)))
    });
    let exact = SmatchConfig {
        exact: true,
        exact_budget: 20_000,
        ..SmatchConfig::default()
    };
    let mut group = c.benchmark_group("smatch-exact");
    group.sampling_mode(SamplingMode::Flat);
    group.bench_function("croutons-vinegar-salad, 20k-node budget", |b| {
        b.iter(|| black_box(smatch(&file_net, &embedded, &exact)))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
