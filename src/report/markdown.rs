//! A Markdown summary for people and CI pages such as `$GITHUB_STEP_SUMMARY`
//! (`--format markdown`): a table per file (or the refusal), the mean of each metric over all
//! rows, the rows below `--fail-under` thresholds, and the signature.

use super::batch_report::{BatchReport, Bootstrap, Threshold};
use super::json::SummaryMean;
use std::fmt::Write;

/// With `bootstrap` (`--ci`), the means carry their 95 % bootstrap intervals.
pub fn render(
    report: &BatchReport,
    thresholds: &[Threshold],
    bootstrap: Option<Bootstrap>,
) -> String {
    let metrics = report.metrics();
    let header: String = metrics.column_names().map(|m| format!(" {m} |")).collect();
    let rule: String = metrics.column_names().map(|_| "---:|").collect();
    let mut out = String::from("## cookingbot-evaluator results\n\n");
    for f in &report.files {
        let _ = writeln!(out, "### {}\n", cell(&f.file));
        match &f.outcome {
            Err(refusal) => {
                let _ = writeln!(out, "**Refused:** {}\n", cell(&refusal.message));
            }
            Ok(rows) if rows.is_empty() => out.push_str("No recipes.\n\n"),
            Ok(rows) => {
                let _ = writeln!(out, "| recipe |{header}\n|---|{rule}");
                for row in rows {
                    let values: String = row.printed.iter().map(|v| format!(" {v} |")).collect();
                    let _ = writeln!(out, "| {} |{values}", cell(&row.recipe.recipe_id));
                }
                out.push('\n');
            }
        }
    }
    let files = report.files.len();
    let refused = report.refusals().count();
    let means = report.means(bootstrap);
    let rows = means.first().map_or(0, |m| m.rows);
    let _ = write!(
        out,
        "### Mean over {rows} recipes of {files} files ({refused} refused)\n\nA recipe without a score counts as 0 in the score's mean, and so does each recipe a refused file names (a file naming none counts once); execution-time averages the recipes that have one.\n\n"
    );
    let ci = bootstrap.is_some();
    if ci {
        out.push_str("| metric | mean | 95% CI | coverage |\n|---|---:|---:|---:|\n");
    } else {
        out.push_str("| metric | mean | coverage |\n|---|---:|---:|\n");
    }
    for m in &means {
        let _ = writeln!(out, "| {} |", SummaryMean::from(m).cells(ci).join(" | "));
    }
    if let Some(b) = bootstrap {
        let _ = writeln!(
            out,
            "\n95% CI: percentile bootstrap over the rows the mean averages, {} resamples, seed {}.",
            b.resamples, b.seed
        );
    }
    out.push('\n');
    if !thresholds.is_empty() {
        let shortfalls = report.shortfalls(thresholds);
        let wanted: Vec<String> = thresholds
            .iter()
            .map(|t| format!("{} ≥ {}", t.metric.name(), t.value))
            .collect();
        if shortfalls.is_empty() {
            let _ = writeln!(out, "Every row meets {}.\n", wanted.join(", "));
        } else {
            let _ = writeln!(
                out,
                "### Below thresholds ({})\n\n| file | recipe | metric | value | threshold |\n|---|---|---|---:|---:|",
                wanted.join(", ")
            );
            for s in &shortfalls {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} |",
                    cell(s.file),
                    cell(s.recipe),
                    s.metric.name(),
                    s.printed,
                    s.threshold
                );
            }
            out.push('\n');
        }
    }
    let _ = writeln!(out, "<sub>{}</sub>", cell(&report.signature.to_string()));
    out
}

/// Text in a table cell or a heading: one line, every line break written as `\n` or `\r` (a
/// file name may hold one: cut there, it would name another file), pipes escaped, no markup.
fn cell(text: &str) -> String {
    text.replace('\n', "\\n")
        .replace('\r', "\\r")
        .replace('|', "\\|")
        .replace('<', "&lt;")
}
