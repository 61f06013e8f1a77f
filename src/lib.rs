//! cookingbot: parse, simulate and score networks of the MUHAI Cooking Language the way the
//! MUHAI Recipe Execution Benchmark's reference evaluator does.
//!
//! The folders of `src/` are the layers, each depending only on its own and those before it
//! (checked by a unit test on the source, see ARCHITECTURE.md): [`base`] (numbers, the profile,
//! the time budget, did-you-mean) → [`data`] (the manifest and the primitive catalogue) →
//! [`language`] (text → networks, diagnostics) and [`network`] (dependency graph) → [`world`]
//! (the ontology and kitchen entities), [`benchmark`] (the gold data, located and downloaded) →
//! [`simulation`] → [`metrics`] → [`report`] → [`evaluate`], [`translate`] → [`session`] (the
//! kitchen as an environment for agents) → [`service`] (every job a front end asks for) →
//! [`agent`] (agents that act through a session) → the front ends `cli`, `gui`, `mcp` and
//! `python`, which never use one another → `entry`, which wires them into the binary and the
//! Python module.
//!
//! Scoring a solution text against a benchmark (here the small demo built into the crate;
//! [`benchmark::locate`] finds the official data):
//!
//! ```
//! use cookingbot::benchmark::DataSource;
//! use cookingbot::evaluate::Evaluator;
//! use cookingbot::base::profile::Profile;
//! use cookingbot::metrics::metric::{Metric, MetricSet};
//!
//! let evaluator = Evaluator::new(Profile::R2024, DataSource::Demo)?;
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/demo-perfect.solution");
//! let text = std::fs::read_to_string(path)?;
//! let metrics = MetricSet::from_words(&[Metric::GoalConditionSuccess.name()]);
//! // Rows come in the reference's order: the reverse of the file.
//! let results = evaluator.evaluate(&text, &metrics).map_err(|r| r.message)?;
//! let first = &results[0];
//! assert_eq!(first.recipe_id, "demo-shortbread-rounds");
//! assert_eq!(first.formatted(Metric::GoalConditionSuccess), "1.00");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `examples/custom_metric.rs` adds a metric of one's own over executions and
//! `examples/custom_kitchen.rs` runs a network in another initial kitchen
//! (`cargo run --example custom_metric`).

pub mod agent;
pub mod base;
pub mod benchmark;
pub mod cli;
pub mod data;
pub mod entry;
pub mod evaluate;
#[cfg(feature = "gui")]
pub mod gui;
pub mod language;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod metrics;
/// Networks with a parser's typical mistakes, for the differential campaign (feature
/// `campaign`: the conformance tests and `examples/differential.rs` turn it on).
#[cfg(feature = "campaign")]
pub mod mistakes;
#[cfg(feature = "python")]
mod python;
pub mod report;
pub mod service;
pub mod session;
pub mod simulation;
pub mod translate;
pub mod world;

/// The layering stated above, checked on the source: a module may use modules of its own layer
/// or of layers below it, never one above; a front end uses no other front end (the CLI's
/// `gui` and `mcp` commands reach theirs through functions `entry` hands it).
#[cfg(test)]
mod layering {
    const LAYERS: [&[&str]; 13] = [
        &["base"],
        &["data"],
        &["language"],
        &["world", "benchmark", "mistakes"],
        &["simulation"],
        &["metrics"],
        &["report"],
        &["evaluate", "translate"],
        &["session"],
        &["service"],
        &["agent"],
        FRONT_ENDS,
        &["entry"],
    ];

    /// The one layer whose modules may not use each other.
    const FRONT_ENDS: &[&str] = &["cli", "gui", "mcp", "python"];

    fn layer(module: &str) -> Option<usize> {
        LAYERS.iter().position(|l| l.contains(&module))
    }

    /// The top-level modules a file's code names through `crate::` (comments left out), grouped
    /// imports (`use crate::{a, b::c}`) included.
    fn uses(text: &str) -> Vec<String> {
        let ident = |s: &str| -> String {
            s.trim_start()
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect()
        };
        let mut found = Vec::new();
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for (i, _) in line.match_indices("crate::") {
                let rest = &line[i + 7..];
                match rest.strip_prefix('{') {
                    Some(group) => {
                        let group = group.split('}').next().unwrap_or("");
                        found.extend(group.split(',').map(ident).filter(|m| !m.is_empty()));
                    }
                    None => found.push(ident(rest)),
                }
            }
        }
        found
    }

    /// Every import of `file` (a path under `src/`) that breaks the layering, described.
    fn breaches(file: &str, text: &str) -> Vec<String> {
        let top = file.split('/').next().unwrap_or("").trim_end_matches(".rs");
        let Some(own) = layer(top) else {
            return vec![format!("{file}: `{top}` is in no layer")];
        };
        uses(text)
            .into_iter()
            .filter_map(|used| match layer(&used) {
                None => Some(format!("{file}: crate::{used} is in no layer")),
                Some(l) if l > own => Some(format!("{file}: crate::{used} climbs a layer")),
                Some(_)
                    if FRONT_ENDS.contains(&top)
                        && FRONT_ENDS.contains(&used.as_str())
                        && used != top =>
                {
                    Some(format!("{file}: front end `{top}` uses front end `{used}`"))
                }
                Some(_) => None,
            })
            .collect()
    }

    /// The `.rs` files under `src/` outside the crate root and the binary, relative to `src/`.
    fn sources() -> Vec<(String, String)> {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        walkdir::WalkDir::new(&src)
            .into_iter()
            .map(|e| e.expect("src is readable").into_path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .filter_map(|p| {
                let relative = p
                    .strip_prefix(&src)
                    .expect("under src")
                    .to_str()?
                    .to_string();
                let skip = relative == "lib.rs" || relative.starts_with("bin/");
                (!skip).then(|| (relative, std::fs::read_to_string(&p).expect("readable")))
            })
            .collect()
    }

    #[test]
    fn no_module_uses_one_above_it_and_no_front_end_another() {
        let files = sources();
        assert!(files.len() > 50, "only {} source files found", files.len());
        let breaches: Vec<String> = files.iter().flat_map(|(f, t)| breaches(f, t)).collect();
        assert!(
            breaches.is_empty(),
            "layering breached:\n{}",
            breaches.join("\n")
        );
    }

    /// The test of the test: each kind of breach is caught, and what is allowed passes.
    #[test]
    fn breaches_are_caught() {
        let cases = [
            ("cli/mod.rs", "use crate::gui::Settings;", 1),
            (
                "gui/launcher.rs",
                "use crate::{service::scoring, mcp::run};",
                1,
            ),
            ("mcp/mod.rs", "fn f() { crate::python::main(); }", 1),
            ("service/scoring.rs", "use crate::cli::console;", 1),
            ("service/check.rs", "use crate::entry::main_from_args;", 1),
            ("metrics/dish.rs", "use crate::report::json;", 1),
            ("language/parse.rs", "use crate::nowhere::x;", 1),
            (
                "gui/launcher.rs",
                "use crate::service::scoring;\nuse crate::gui::task;",
                0,
            ),
            ("cli/mod.rs", "// use crate::gui::Settings;", 0),
            ("entry.rs", "use crate::{cli, gui, mcp};", 0),
        ];
        for (file, text, expected) in cases {
            assert_eq!(breaches(file, text).len(), expected, "{file}: {text}");
        }
    }

    /// One name, one job: no two files under `src/` share a file name (a module's `mod.rs`,
    /// the crate root and the binary's `main.rs` aside).
    #[test]
    fn file_names_are_unique() {
        let mut seen = std::collections::BTreeMap::<String, Vec<String>>::new();
        for (file, _) in sources() {
            let name = file.rsplit('/').next().unwrap_or(&file).to_string();
            if name != "mod.rs" {
                seen.entry(name).or_default().push(file);
            }
        }
        let shared: Vec<String> = seen
            .into_iter()
            .filter(|(_, files)| files.len() > 1)
            .map(|(name, files)| format!("{name}: {}", files.join(", ")))
            .collect();
        assert!(
            shared.is_empty(),
            "file names used twice:\n{}",
            shared.join("\n")
        );
    }
}
