//! The leaderboard `compare` writes: per metric, every system ranked by corpus mean, each
//! marked by whether a paired test against the best tells it apart from the best. A table in
//! Markdown, and a self-contained HTML page with a forest plot of the 95 % intervals, because a
//! ranking alone hides that most systems of a 30-recipe benchmark are not separable.

use super::html::{STYLE, escape};
use std::fmt::Write;

/// The significance level of "not significantly different from the best".
pub const LEVEL: f64 = 0.05;

/// The whole leaderboard: one board per metric.
pub struct Leaderboard {
    /// The paired test against the best, as the output names it.
    pub test: String,
    /// How the statistics were drawn (resamples, trials, seed, NIL policy).
    pub settings: String,
    pub boards: Vec<Board>,
}

/// One metric's ranking, best first.
pub struct Board {
    pub label: &'static str,
    pub entries: Vec<Entry>,
}

pub struct Entry {
    pub system: String,
    pub mean: f64,
    /// The 95 % bootstrap interval of the mean.
    pub low: f64,
    pub high: f64,
    /// `executed/recipes`.
    pub coverage: String,
    /// The paired test's p-value against the best; `None` for the best itself.
    pub p_against_best: Option<f64>,
}

impl Entry {
    /// The best, or a system the test cannot tell apart from it.
    pub fn tied_with_best(&self) -> bool {
        self.p_against_best.is_none_or(|p| p >= LEVEL)
    }

    fn verdict(&self) -> &'static str {
        match self.p_against_best {
            None => "best",
            Some(p) if p >= LEVEL => "≈ not significantly different from the best",
            Some(_) => "significantly below the best",
        }
    }

    fn p(&self) -> String {
        self.p_against_best
            .map_or(String::new(), |p| format!("{p:.4}"))
    }
}

impl Leaderboard {
    fn rule(&self) -> String {
        format!(
            "Ranked by corpus mean. A system is marked ≈ when the {} against the best gives p ≥ {LEVEL}: the data cannot tell it apart from the best.",
            self.test
        )
    }

    /// Markdown: a ranked table per metric, then the rule and the settings.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        for board in &self.boards {
            let _ = writeln!(out, "## Leaderboard: {}\n", board.label);
            out.push_str("| rank | system | mean | 95% CI | coverage | p against the best | |\n");
            out.push_str("|---|---|---|---|---|---|---|\n");
            for (rank, e) in board.entries.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "| {} | {} | {:.4} | [{:.4}, {:.4}] | {} | {} | {} |",
                    rank + 1,
                    e.system.replace('|', "\\|"),
                    e.mean,
                    e.low,
                    e.high,
                    e.coverage,
                    e.p(),
                    e.verdict()
                );
            }
            out.push('\n');
        }
        let _ = writeln!(out, "_{}_\n\n_{}._", self.rule(), self.settings);
        out
    }

    /// The self-contained page: per metric a forest plot and the ranked table.
    pub fn html(&self) -> String {
        let mut out = format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>Leaderboard — cookingbot compare</title>\n<style>\n{STYLE}{FOREST_STYLE}</style>\n</head>\n<body>\n<main>\n\
             <header class=\"page\">\n<h1>Leaderboard</h1>\n<p class=\"rule\">{}</p>\n</header>\n",
            escape(&self.rule())
        );
        for board in &self.boards {
            let _ = write!(
                out,
                "<section class=\"recipe board\">\n<h2>{}</h2>\n",
                escape(board.label)
            );
            forest_plot(&mut out, board);
            out.push_str(
                "<table>\n<tr><th>rank</th><th>system</th><th>mean</th><th>95% CI</th><th>coverage</th><th>p against the best</th><th></th></tr>\n",
            );
            for (rank, e) in board.entries.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "<tr class=\"{}\"><td class=\"num\">{}</td><td class=\"mono\">{}</td><td class=\"num\">{:.4}</td><td class=\"num\">[{:.4}, {:.4}]</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                    class(e),
                    rank + 1,
                    escape(&e.system),
                    e.mean,
                    e.low,
                    e.high,
                    escape(&e.coverage),
                    e.p(),
                    e.verdict()
                );
            }
            out.push_str("</table>\n</section>\n");
        }
        let _ = write!(
            out,
            "<footer>{}</footer>\n</main>\n</body>\n</html>\n",
            escape(&self.settings)
        );
        out
    }
}

fn class(e: &Entry) -> &'static str {
    match e.p_against_best {
        None => "best",
        Some(_) if e.tied_with_best() => "tied",
        Some(_) => "below",
    }
}

const FOREST_STYLE: &str = "\
.rule { color: var(--muted); margin: 6px 0 0; }
svg.forest { width: 100%; height: auto; display: block; margin: 4px 0 14px; }
.forest .axis { stroke: var(--line); }
.forest .tick { fill: var(--muted); font-size: 11px; }
.forest .name { fill: var(--ink); font-size: 12px; }
.forest .ci { stroke-width: 3; stroke-linecap: round; }
.forest .best .ci, .forest .best .mean { stroke: var(--gold); fill: var(--gold); }
.forest .tied .ci, .forest .tied .mean { stroke: var(--ok); fill: var(--ok); }
.forest .below .ci, .forest .below .mean { stroke: #9aa5b1; fill: #9aa5b1; }
.forest .best-mean { stroke: var(--gold); stroke-dasharray: 4 3; }
tr.best td { background: #fbf6ea; } tr.tied td { background: #eefaf4; }
";

/// The plot's geometry: names on the left, the score axis [0, 1] on the right.
const WIDTH: f64 = 1000.0;
const NAMES: f64 = 330.0;
const ROW: f64 = 26.0;
const TOP: f64 = 10.0;
const AXIS: f64 = 30.0;
/// Longer names keep their end (the file or folder), as paths differ there.
const NAME_CHARS: usize = 48;

/// One interval per system: a line from the low to the high end, a dot at the mean, coloured
/// by standing; a dashed line at the best's mean.
fn forest_plot(out: &mut String, board: &Board) {
    let height = TOP + ROW * board.entries.len() as f64 + AXIS;
    let x = |v: f64| NAMES + v.clamp(0.0, 1.0) * (WIDTH - NAMES - 20.0);
    let _ = writeln!(
        out,
        "<svg class=\"forest\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-label=\"95% intervals of {}\">",
        escape(board.label)
    );
    let bottom = height - AXIS + 6.0;
    for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let _ = writeln!(
            out,
            "<line class=\"axis\" x1=\"{0:.1}\" y1=\"{TOP}\" x2=\"{0:.1}\" y2=\"{bottom:.1}\"/><text class=\"tick\" x=\"{0:.1}\" y=\"{1:.1}\" text-anchor=\"middle\">{tick}</text>",
            x(tick),
            bottom + 16.0
        );
    }
    if let Some(best) = board.entries.first() {
        let _ = writeln!(
            out,
            "<line class=\"best-mean\" x1=\"{0:.1}\" y1=\"{TOP}\" x2=\"{0:.1}\" y2=\"{bottom:.1}\"/>",
            x(best.mean)
        );
    }
    for (i, e) in board.entries.iter().enumerate() {
        let y = TOP + ROW * (i as f64 + 0.5);
        let chars: Vec<char> = e.system.chars().collect();
        let name: String = if chars.len() > NAME_CHARS {
            std::iter::once('…')
                .chain(chars[chars.len() - NAME_CHARS + 1..].iter().copied())
                .collect()
        } else {
            e.system.clone()
        };
        let _ = writeln!(
            out,
            "<g class=\"{}\"><title>{}: {:.4} [{:.4}, {:.4}]</title><text class=\"name\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <line class=\"ci\" x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/><circle class=\"mean\" cx=\"{:.1}\" cy=\"{y:.1}\" r=\"5\"/></g>",
            class(e),
            escape(&e.system),
            e.mean,
            e.low,
            e.high,
            NAMES - 12.0,
            y + 4.0,
            escape(&name),
            x(e.low),
            x(e.high),
            x(e.mean)
        );
    }
    out.push_str("</svg>\n");
}
