//! Writing results: the reference's CSV (byte for byte), its console summary, JSON, JUnit XML
//! and Markdown, for one file or a batch (`batch_report.rs`: shards and their merge), the HTML
//! report and the leaderboard.
//!
//! Reports know results, never how they were computed: they take
//! [`RecipeResult`](crate::metrics::metric::RecipeResult)s (and, for `simulate`, an execution to
//! describe).

pub mod batch_report;
pub mod content;
pub mod cook_guide;
pub mod csv;
pub mod dietary;
pub mod dish_tree;
pub mod figures;
pub mod html;
pub mod json;
pub mod junit;
pub mod leaderboard;
pub mod markdown;
pub mod output;
pub mod simulation;

use crate::metrics::metric::MetricSet;
pub use output::{OutputIsInput, refuse_input_as_output, write_atomically};
use std::io::{self, Write};

/// The console summary of the reference, one block per recipe.
pub fn write_summary(
    out: &mut dyn Write,
    rows: &[batch_report::Row],
    metrics: &MetricSet,
) -> io::Result<()> {
    for r in rows {
        writeln!(out, "RECIPE: {}", r.recipe.recipe_id)?;
        for (label, value) in metrics.column_labels().zip(&r.printed) {
            writeln!(out, "{label}: {value}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
