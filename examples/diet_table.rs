//! The table of docs/diet.md: every gold recipe of both profiles judged against every diet, as
//! the evaluation's `--metrics diet:NAME` columns judge it (each gold network scored against
//! itself, its dish the one the dish approximation score compares). A cell names the
//! ingredients the diet excludes, or says `yes`. The test suite checks that the committed table
//! is what this prints. Needs the benchmark data of both profiles:
//!
//! ```sh
//! COOKINGBOT_BENCHMARK=../shared/benchmark COOKINGBOT_BENCHMARK_2023=../shared/benchmark-2023 \
//!     cargo run --release --example diet_table
//! ```

use cookingbot::base::profile::Profile;
use cookingbot::data::diet_table::Diet;
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::diet::Verdict;
use cookingbot::metrics::metric::MetricSet;
use std::path::PathBuf;

/// The table of one profile's gold recipes, in the benchmark's order, as Markdown.
pub fn table(profile: Profile, data: PathBuf) -> Result<String, String> {
    let evaluator = Evaluator::new(profile, data).map_err(|e| e.to_string())?;
    let metrics = Diet::ALL
        .into_iter()
        .fold(MetricSet::empty(), MetricSet::with_diet);
    let diets = Diet::ALL.map(Diet::name);
    let mut out = format!(
        "| recipe ({profile}) | {} |\n|---|{}\n",
        diets.join(" | "),
        "---|".repeat(diets.len())
    );
    for gold in &evaluator.benchmark.recipes {
        // The gold network under its recipe's id (a file's header may name another recipe).
        let mut network = gold.network.clone();
        network.id = gold.id.clone();
        let result = evaluator
            .evaluate_recipe(&network, &metrics)
            .map_err(|r| format!("{}: {}", gold.id, r.message))?;
        let cells: Vec<String> = result.diets.iter().map(cell).collect();
        out.push_str(&format!("| {} | {} |\n", gold.id, cells.join(" | ")));
    }
    Ok(out)
}

/// `yes`, `NIL`, or the excluded ingredients.
fn cell(verdict: &Verdict) -> String {
    match verdict.satisfied() {
        Some(true) => "yes".into(),
        None => "NIL".into(),
        Some(false) => {
            let names: Vec<&str> = verdict
                .violations
                .iter()
                .map(|v| v.ingredient.as_str())
                .collect();
            names.join(", ")
        }
    }
}

/// The data folder of a profile: `COOKINGBOT_BENCHMARK` for 2024, `COOKINGBOT_BENCHMARK_2023`.
fn data(profile: Profile) -> Result<PathBuf, String> {
    let var = match profile {
        Profile::R2024 => "COOKINGBOT_BENCHMARK",
        Profile::R2023 => "COOKINGBOT_BENCHMARK_2023",
    };
    std::env::var_os(var)
        .map(PathBuf::from)
        .ok_or_else(|| format!("set {var} to the profile's benchmark data"))
}

#[allow(dead_code)] // the test suite includes this file and calls `table`
fn main() -> Result<(), String> {
    for profile in [Profile::R2024, Profile::R2023] {
        println!("{}", table(profile, data(profile)?)?);
    }
    Ok(())
}
