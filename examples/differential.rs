//! The differential campaign against the reference evaluator (docs/differential.md).
//!
//! ```text
//! cargo run --release --example differential -- generate PROFILE DIR [VARIANTS [KIND...]]
//!     writes the campaign's networks (cookingbot::mistakes) as DIR/<recipe>__<kind>__<n>.solution:
//!     every kind but the big shapes, or the kinds named (`nested-mixes`, ...)
//! cargo run --release --example differential -- compare PROFILE ORACLE.tsv [STORE.tsv]
//!     scores the same networks with cookingbot, prints every disagreement with the oracle's
//!     TSV (shared/oracle/run.sh) grouped by kind, and with STORE.tsv keeps the oracle's values
//!     as the conformance test's data (tests/data/differential/PROFILE.tsv)
//! ```
//! The benchmark data is located as the CLI locates it (`COOKINGBOT_BENCHMARK`, ...).

use cookingbot::base::profile::Profile;
use cookingbot::benchmark::{Benchmark, locate};
use cookingbot::data::catalogue::Catalogue;
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::metric::{Metric, MetricSet};
use cookingbot::mistakes::{Golds, Kind};
use std::collections::BTreeMap;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let run = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["generate", profile, dir] => generate(profile, dir, 12, &[]),
        ["generate", profile, dir, variants, ref kinds @ ..] => match variants.parse() {
            Ok(n) => generate(profile, dir, n, kinds),
            Err(e) => Err(format!("VARIANTS: {e}")),
        },
        ["compare", profile, oracle] => compare(profile, oracle, None),
        ["compare", profile, oracle, store] => compare(profile, oracle, Some(store)),
        _ => Err("usage: differential generate PROFILE DIR [VARIANTS [KIND...]] | compare PROFILE ORACLE.tsv [STORE.tsv]".into()),
    };
    match run {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn evaluator(profile: &str) -> Result<(Evaluator, Golds), String> {
    let profile = profile.parse::<Profile>().map_err(|e| e.to_string())?;
    let source = locate(profile, None).map_err(|e| e.to_string())?;
    let benchmark = Benchmark::load(profile, &source).map_err(|e| e.to_string())?;
    let golds = Golds::new(
        benchmark
            .recipes
            .iter()
            .map(|r| (r.id.as_str(), &r.network)),
        Catalogue::builtin(profile),
    );
    let evaluator = Evaluator::new(profile, source).map_err(|e| e.to_string())?;
    Ok((evaluator, golds))
}

fn file_name(id: &str) -> String {
    format!("{}.solution", id.replace('/', "__"))
}

/// Writes the networks of `kinds` (by name; none: the campaign's kinds) at `variants` variants.
fn generate(profile: &str, dir: &str, variants: usize, kinds: &[&str]) -> Result<(), String> {
    let kinds = kinds
        .iter()
        .map(|k| Kind::from_name(k).ok_or_else(|| format!("no kind `{k}`")))
        .collect::<Result<Vec<_>, _>>()?;
    let (_, golds) = evaluator(profile)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{dir}: {e}"))?;
    let campaign = if kinds.is_empty() {
        golds.campaign(variants)
    } else {
        golds.of_kinds(&kinds, variants)
    };
    for m in &campaign {
        let path = std::path::Path::new(dir).join(file_name(&m.id));
        std::fs::write(&path, &m.text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let mut per_kind = BTreeMap::<&str, usize>::new();
    for m in &campaign {
        *per_kind.entry(m.kind.name()).or_default() += 1;
    }
    eprintln!("{} networks in {dir}: {per_kind:?}", campaign.len());
    Ok(())
}

/// One row as both tools print it: `recipe gcs dish time`, or `refused`.
fn ours(evaluator: &Evaluator, text: &str) -> Vec<String> {
    match evaluator.evaluate(text, &MetricSet::default()) {
        Err(_) => vec!["refused".into()],
        Ok(results) => results
            .iter()
            .map(|r| {
                format!(
                    "{} {} {} {}",
                    r.recipe_id,
                    r.formatted(Metric::GoalConditionSuccess),
                    r.formatted(Metric::DishApproximationScore),
                    r.formatted(Metric::ExecutionTime)
                )
            })
            .collect(),
    }
}

fn compare(profile: &str, oracle: &str, store: Option<&str>) -> Result<(), String> {
    let (evaluator, golds) = evaluator(profile)?;
    let text = std::fs::read_to_string(oracle).map_err(|e| format!("{oracle}: {e}"))?;
    // Oracle rows per solution file, in order.
    let mut rows: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
    let mut order = Vec::new();
    for line in text.lines().skip(1) {
        let cols: Vec<String> = line.split('\t').map(String::from).collect();
        let file = cols[0].rsplit('/').next().unwrap_or("").to_string();
        if !rows.contains_key(&file) {
            order.push(file.clone());
        }
        rows.entry(file).or_default().push(cols);
    }
    let mut agree = BTreeMap::<&str, (usize, usize)>::new();
    let mut unknown = 0;
    let mut differences = Vec::new();
    let mut kept = String::from(
        "id\trecipe-id\tgoal-condition-success\tdish-approximation-score\texecution-time\terror\n",
    );
    for file in &order {
        let id = file.trim_end_matches(".solution").replace("__", "/");
        let Some(mistake) = golds.mistake(&id) else {
            return Err(format!("{file}: no such network in the campaign"));
        };
        let expected = &rows[file];
        // A run the reference did not finish says nothing about its answer.
        if expected
            .iter()
            .any(|r| r[5] == "timeout" || r[5].starts_with("crash"))
        {
            unknown += 1;
            continue;
        }
        let want: Vec<String> = if expected.iter().any(|r| !r[5].is_empty()) {
            vec!["refused".into()]
        } else {
            expected
                .iter()
                .filter(|r| !r[1].is_empty())
                .map(|r| format!("{} {} {} {}", r[1], r[2], r[3], r[4]))
                .collect()
        };
        let got = ours(&evaluator, &mistake.text);
        let tally = agree.entry(mistake.kind.name()).or_default();
        tally.1 += 1;
        if got == want {
            tally.0 += 1;
        } else {
            differences.push((mistake.kind, id.clone(), want, got, expected[0][5].clone()));
        }
        for r in expected {
            kept.push_str(&id);
            for c in &r[1..] {
                kept.push('\t');
                kept.push_str(c);
            }
            kept.push('\n');
        }
    }
    let (same, total) = agree.values().fold((0, 0), |(a, b), (s, t)| (a + s, b + t));
    println!(
        "# profile {profile}: {same} / {total} networks agree ({unknown} not finished by the reference, left out)"
    );
    for kind in Kind::ALL {
        if let Some((s, t)) = agree.get(kind.name()) {
            println!("{:16} {s:5} / {t:5}", kind.name());
        }
    }
    for (kind, id, want, got, error) in &differences {
        println!(
            "\n{} {id}\n  reference {want:?} {error}\n  ours      {got:?}",
            kind.name()
        );
    }
    if let Some(store) = store {
        std::fs::write(store, kept).map_err(|e| format!("{store}: {e}"))?;
    }
    Ok(())
}
