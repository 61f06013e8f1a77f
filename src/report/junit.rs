//! JUnit XML for CI test reporters (`--format junit`): one test suite whose properties are the
//! signature; one test case per recipe row (class name: the file; name: the recipe id, `#2`
//! and on for a repeated id) failing when the row is below a `--fail-under` threshold; one
//! failing test case `(refused)` per refused file, holding its diagnostics; with thresholds, a
//! failing test case `(no recipe)` per file that holds none.

use super::batch_report::{BatchReport, NO_RECIPE, Threshold};
use super::content::Signature;
use std::collections::HashMap;
use std::fmt::Write;

pub fn render(report: &BatchReport, thresholds: &[Threshold]) -> String {
    let metrics = report.metrics();
    let mut cases = String::new();
    let mut tests = 0;
    let mut failures = 0;
    for f in &report.files {
        let rows = match &f.outcome {
            Ok(rows) => rows,
            Err(refusal) => {
                tests += 1;
                failures += 1;
                let _ = writeln!(
                    cases,
                    "    <testcase classname=\"{}\" name=\"(refused)\">\n      <failure type=\"refusal\" message=\"{}\">{}</failure>\n    </testcase>",
                    escape(&f.file),
                    escape(&refusal.message),
                    escape_text(&refusal.rendered)
                );
                continue;
            }
        };
        if rows.is_empty() && !thresholds.is_empty() {
            tests += 1;
            failures += 1;
            let _ = writeln!(
                cases,
                "    <testcase classname=\"{}\" name=\"{NO_RECIPE}\">\n      <failure type=\"fail-under\" message=\"the file holds no recipe to score\"/>\n    </testcase>",
                escape(&f.file)
            );
        }
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for row in rows {
            tests += 1;
            let id = row.recipe.recipe_id.as_str();
            let n = seen.entry(id).or_default();
            *n += 1;
            let name = match *n {
                1 => id.to_string(),
                n => format!("{id} #{n}"),
            };
            let values: Vec<String> = metrics
                .iter()
                .zip(&row.printed)
                .map(|(m, v)| format!("{} {v}", m.name()))
                .collect();
            let _ = writeln!(
                cases,
                "    <testcase classname=\"{}\" name=\"{}\">",
                escape(&f.file),
                escape(&name)
            );
            let short: Vec<String> = thresholds
                .iter()
                .filter_map(|t| {
                    let printed = row.falls_short(&metrics, t)?;
                    Some(format!(
                        "{} {printed} is below {}",
                        t.metric.name(),
                        t.value
                    ))
                })
                .collect();
            if !short.is_empty() {
                failures += 1;
                let _ = writeln!(
                    cases,
                    "      <failure type=\"fail-under\" message=\"{}\"/>",
                    escape(&short.join("; "))
                );
            }
            let _ = writeln!(
                cases,
                "      <system-out>{}</system-out>\n    </testcase>",
                escape_text(&values.join(", "))
            );
        }
    }
    let properties = properties(&report.signature);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"cookingbot-evaluator\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n  <testsuite name=\"cookingbot-evaluator\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">\n    <properties>"
    );
    for (name, value) in properties {
        let _ = writeln!(
            out,
            "      <property name=\"{name}\" value=\"{}\"/>",
            escape(&value)
        );
    }
    out.push_str("    </properties>\n");
    out.push_str(&cases);
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// The signature as the test suite's properties, in a fixed order; the optional ones only
/// where set.
fn properties(s: &Signature) -> impl Iterator<Item = (&'static str, String)> {
    let metric_names: Vec<&str> = s.metrics.iter().map(|m| m.name()).collect();
    [
        ("tool", s.tool.clone()),
        ("version", s.version.clone()),
        ("profile", s.profile.clone()),
        ("kitchen", s.kitchen.clone()),
        ("metrics", metric_names.join(",")),
        ("smatch-seed", s.smatch.seed.to_string()),
        ("smatch-restarts", s.smatch.restarts.to_string()),
        ("smatch-exact", s.smatch.exact.to_string()),
        ("data", s.data.status.name().to_string()),
        ("gold-sha256", s.data.gold_sha256.clone()),
        ("kitchen-sha256", s.data.kitchen_sha256.clone()),
    ]
    .into_iter()
    .chain(
        s.smatch
            .exact_budget
            .map(|nodes| ("smatch-exact-budget", nodes.to_string())),
    )
    .chain(
        s.data
            .ontology_sha256
            .clone()
            .map(|sum| ("ontology-sha256", sum)),
    )
}

/// Text for an XML attribute (line breaks as character references, or a parser would turn
/// them into spaces); characters XML 1.0 cannot hold are dropped.
fn escape(text: &str) -> String {
    escape_text(text).replace('\n', "&#10;")
}

/// Text for an XML element: the page's escaping (its markup characters are XML's too), without
/// the control characters XML 1.0 cannot hold.
fn escape_text(text: &str) -> String {
    let held: String = text
        .chars()
        .filter(|&c| matches!(c, '\t' | '\r' | '\n') || (c as u32) >= 0x20)
        .collect();
    crate::report::html::escape(&held)
}

#[cfg(test)]
mod tests {
    use super::{escape, escape_text};

    #[test]
    fn escapes_markup_and_drops_control_characters() {
        assert_eq!(
            escape("a<b & \"c\"\u{1}\nd"),
            "a&lt;b &amp; &quot;c&quot;&#10;d"
        );
        assert_eq!(escape_text("x\ny>"), "x\ny&gt;");
    }
}
