//! [`ReportModel`] → one HTML document: inline CSS, inline SVG, no script, nothing fetched.

use super::escape::escape;
use super::time_axis::TimeAxis;
use super::{
    ActionStatus, DishComparison, GoalLine, Grid, NetworkDiagram, RecipePage, ReportModel, Route,
    Timeline, TimelineGrid, TimelineLayout, goal_runs, missed_run_text, with_decimals,
};
use crate::metrics::dish::DishDetail;
use crate::metrics::metric::Metric;
use crate::report::dish_tree::DishNode;
use crate::report::json::Summary;
use std::fmt::Write;

/// The page style, shared with the leaderboard page.
pub(crate) const STYLE: &str = include_str!("style.css");

/// At most `max` characters, with an ellipsis where cut.
fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// The means over the page's recipes with their 95 % bootstrap intervals (`--ci`).
fn summary(out: &mut String, s: &Summary) {
    out.push_str(
        "<section class=\"recipe summary\">\n<h2>Mean over the recipes</h2>\n<table>\n<tr><th>metric</th><th>mean</th><th>95% CI</th><th>coverage</th></tr>\n",
    );
    for m in &s.metrics {
        let _ = writeln!(
            out,
            "<tr><td>{}</td></tr>",
            m.cells(true).join("</td><td class=\"num\">")
        );
    }
    let _ = write!(
        out,
        "</table>\n<p class=\"rule\">{}. 95% CI: percentile bootstrap over the recipes, {} resamples, seed {}.</p>\n</section>\n",
        escape(&s.nil_policy),
        s.bootstrap_resamples,
        s.seed
    );
}

/// The whole page.
pub fn render(model: &ReportModel) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let sig = &model.signature;
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} — cookingbot report</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n",
        escape(&model.source)
    );
    let metrics: Vec<&str> = sig.metrics.iter().map(|m| m.name()).collect();
    let _ = write!(
        out,
        "<header class=\"page\">\n<h1>Evaluation report</h1>\n<div class=\"source mono\">{}</div>\n\
         <div class=\"chips\"><span class=\"chip\"><b>{}</b> {}</span>\
         <span class=\"chip\">reference <b>{}</b></span>\
         <span class=\"chip\">kitchen <b>{}</b></span>\
         <span class=\"chip\">metrics <b>{}</b></span>\
         <span class=\"chip\">Smatch seed <b>{}</b>, <b>{}</b> restarts{}</span>\
         <span class=\"chip\" title=\"gold sha256 {}, kitchen sha256 {}\">data <b>{}</b> gold {} kitchen {}</span></div>\n</header>\n",
        escape(&model.source),
        escape(&sig.tool),
        escape(&sig.version),
        escape(&sig.profile),
        escape(&sig.kitchen),
        escape(&metrics.join(" ")),
        sig.smatch.seed,
        sig.smatch.restarts,
        if sig.smatch.exact { ", exact" } else { "" },
        sig.data.gold_sha256,
        sig.data.kitchen_sha256,
        sig.data.status.name(),
        sig.data.gold_short(),
        sig.data.kitchen_short(),
    );
    if model.recipes.len() > 1 {
        out.push_str("<nav class=\"toc\">Recipes: ");
        for (i, r) in model.recipes.iter().enumerate() {
            let _ = write!(
                out,
                "<a href=\"#recipe-{}\">{}</a>",
                i + 1,
                escape(&r.recipe_id)
            );
        }
        out.push_str("</nav>\n");
    }
    if let Some(s) = &model.summary {
        summary(&mut out, s);
    }
    for (i, r) in model.recipes.iter().enumerate() {
        recipe(&mut out, i + 1, r);
    }
    if let Some(t) = &model.trajectory {
        super::trajectory_section::render(&mut out, t);
    }
    let _ = write!(
        out,
        "<footer>Written by {} {}. Times are simulated seconds.</footer>\n</main>\n</body>\n</html>\n",
        escape(&sig.tool),
        escape(&sig.version)
    );
    out
}

fn recipe(out: &mut String, n: usize, r: &RecipePage) {
    let _ = write!(
        out,
        "<section class=\"recipe\" id=\"recipe-{n}\">\n<h2>{}<span class=\"tag\">{} actions</span></h2>\n",
        escape(&r.recipe_id),
        r.network.nodes.len()
    );
    cards(out, r);
    lead(out, r);
    out.push_str("<h3>Network</h3>\n");
    network(out, n, &r.network);
    out.push_str("<h3>Execution</h3>\n");
    if r.timeline.bars.is_empty() {
        out.push_str("<p class=\"none\">Nothing was executed.</p>\n");
    } else {
        timeline(out, n, &r.timeline);
    }
    if !r.goals.is_empty() {
        out.push_str("<h3>Goal conditions</h3>\n");
        goals(out, n, &r.goals);
    }
    if let Some(d) = &r.dish {
        out.push_str("<h3>Dish</h3>\n");
        dish(out, d);
    }
    out.push_str("</section>\n");
}

fn cards(out: &mut String, r: &RecipePage) {
    out.push_str("<div class=\"cards\">\n");
    for c in &r.metrics {
        let unit = if c.metric == Metric::ExecutionTime && c.value != "NIL" {
            "<small>s</small>"
        } else {
            ""
        };
        let _ = write!(
            out,
            "<div class=\"card\"><div class=\"label\">{}</div><div class=\"value\">{}{unit}</div>",
            escape(&c.label),
            escape(&c.value)
        );
        if let Some(f) = c.fraction {
            let grade = match f {
                f if f >= 0.9 => "high",
                f if f >= 0.5 => "mid",
                _ => "low",
            };
            let _ = write!(
                out,
                "<div class=\"gauge\"><span class=\"{grade}\" style=\"width:{:.1}%\"></span></div>",
                (f.clamp(0.0, 1.0) * 100.0)
            );
        }
        let _ = writeln!(
            out,
            "<div class=\"detail\">{}</div></div>",
            escape(&c.detail)
        );
    }
    out.push_str("</div>\n");
}

/// One sentence on what went wrong, from the goals, the dish and the actions.
fn lead(out: &mut String, r: &RecipePage) {
    let mut said = Vec::new();
    if !r.solved {
        said.push(format!("No execution: {}.", r.unsolved_reason));
    }
    let missed = r.goals.iter().filter(|g| g.reached_by.is_none()).count();
    if missed > 0 {
        said.push(format!(
            "{missed} of {} gold goals were missed, the first at gold action {}.",
            r.goals.len(),
            r.goals
                .iter()
                .find(|g| g.reached_by.is_none())
                .map_or(0, |g| g.gold_action)
        ));
    }
    if let Some(d) = &r.dish {
        let x = &d.differences.detail;
        if !x.missing.is_empty() {
            said.push(format!("The dish lacks {}.", x.missing.join(", ")));
        }
        if !x.surplus.is_empty() {
            said.push(format!(
                "It has {} the gold does not.",
                x.surplus.join(", ")
            ));
        }
    }
    let failed = status_count(&r.network, ActionStatus::Failed);
    if failed > 0 {
        said.push(format!("{failed} action(s) failed."));
    }
    let not_run = status_count(&r.network, ActionStatus::NotRun);
    if not_run > 0 && r.solved {
        said.push(format!("{not_run} action(s) never ran."));
    }
    let class = if !r.solved {
        "bad"
    } else if said.is_empty() {
        said.push("Every gold goal was reached and the dish matches.".into());
        "good"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "<p class=\"lead {class}\">{}</p>",
        escape(&said.join(" "))
    );
}

fn status_count(n: &NetworkDiagram, s: ActionStatus) -> usize {
    n.nodes.iter().filter(|x| x.status == s).count()
}

/// The network's drawing units: two lines of constants under the primitive's name.
const NETWORK_GRID: Grid = Grid {
    node_width: 186.0,
    node_height: 64.0,
    column: 214.0,
    row: 76.0,
    pad: 16.0,
    band_gap: 40.0,
};
/// The width a drawing has on the page (`main` at its widest, less the section's padding).
const PAGE_WIDTH: f64 = 1130.0;
/// Characters of a node's line at its font size.
const NODE_LINE: usize = 29;

/// A node's number and constants in at most two lines of `NODE_LINE` characters, broken
/// between words (the first constant always beside the number); what does not fit ends in an
/// ellipsis, and the node's hover has it all.
fn node_lines(action: usize, constants: &str) -> Vec<String> {
    let mut lines = vec![format!("#{action}")];
    for (i, word) in constants.split_whitespace().enumerate() {
        let used = lines.last().map_or(0, |l| l.chars().count());
        if i > 0 && lines.len() < 2 && used + 1 + word.chars().count() > NODE_LINE {
            lines.push(String::new());
        }
        if let Some(line) = lines.last_mut() {
            line.push_str(match (i, line.is_empty()) {
                (0, _) => "  ",
                (_, true) => "",
                (_, false) => " ",
            });
            line.push_str(word);
        }
    }
    lines.iter().map(|l| clip(l, NODE_LINE)).collect()
}

fn network(out: &mut String, n: usize, d: &NetworkDiagram) {
    let layout = d.layout(NETWORK_GRID, PAGE_WIDTH);
    let (width, height) = (layout.width, layout.height);
    let (node_w, node_h) = (NETWORK_GRID.node_width, NETWORK_GRID.node_height);
    let wraps = if layout.columns < d.layers {
        "; the layers wrap into rows"
    } else {
        ""
    };
    let _ = write!(
        out,
        "<input type=\"checkbox\" class=\"show-ks toggle\" id=\"ks-{n}\">\
         <div class=\"legend\"><span><i class=\"node\"></i>executed</span>\
         <span><i class=\"failed\"></i>failed (its output is a failed object)</span>\
         <span><i class=\"notrun\"></i>never ran</span>\
         <span><i class=\"reached\"></i>reached a gold goal</span>\
         <span>arrows: ingredients and tools flowing between actions, layers left to right{wraps}</span>\
         <label class=\"toggle\" for=\"ks-{n}\">show kitchen-state order</label></div>\n\
         <div class=\"figure\"><svg class=\"network\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\">\n\
         <defs><marker id=\"arrow-{n}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#8492a6\"/></marker></defs>\n"
    );
    for e in &d.edges {
        let class = if e.kitchen_state {
            " class=\"ks\" stroke=\"#c3a6e8\" stroke-dasharray=\"4 3\""
        } else {
            " stroke=\"#8492a6\""
        };
        let path = match layout.route(e) {
            Route::Curve([(sx, sy), (c1x, c1y), (c2x, c2y), (tx, ty)]) => {
                format!("M{sx},{sy} C{c1x},{c1y} {c2x},{c2y} {tx},{ty}")
            }
            Route::Path(points) => points
                .iter()
                .enumerate()
                .map(|(i, (x, y))| format!("{}{x},{y}", if i == 0 { "M" } else { " L" }))
                .collect(),
        };
        let _ = writeln!(
            out,
            "<path{class} fill=\"none\" stroke-width=\"1.4\" marker-end=\"url(#arrow-{n})\" d=\"{path}\"><title>?{}: #{} → #{}</title></path>",
            escape(&e.variable),
            e.from,
            e.to
        );
    }
    for (node, &(x, y)) in d.nodes.iter().zip(&layout.corners) {
        let (fill, stroke) = node.status.colours();
        let dash = match node.status {
            ActionStatus::NotRun => " stroke-dasharray=\"5 3\"",
            _ => "",
        };
        let _ = write!(
            out,
            "<g><title>{}</title>\
             <rect x=\"{x}\" y=\"{y}\" width=\"{node_w}\" height=\"{node_h}\" rx=\"6\" fill=\"#{fill:06x}\" stroke=\"#{stroke:06x}\" stroke-width=\"1.5\"{dash}/>\
             <text x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"600\" fill=\"#1f2933\">{}</text>",
            escape(&node.hover_text()),
            x + 8.0,
            y + 19.0,
            escape(&clip(&node.primitive, 23)),
        );
        for (i, line) in node_lines(node.action, &node.constants).iter().enumerate() {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#52606d\">{}</text>",
                x + 8.0,
                y + 37.0 + 15.0 * i as f64,
                escape(line)
            );
        }
        if node.reached_goal.is_some() {
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"6.5\" fill=\"#2a9d6a\"/><path d=\"M{},{} l2.5,2.5 l4.5,-5\" stroke=\"#fff\" stroke-width=\"1.8\" fill=\"none\"/>",
                x + node_w - 11.0,
                y + 11.0,
                x + node_w - 14.5,
                y + 11.0
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg></div>\n");
}

const TL_WIDTH: f64 = 1130.0;
const TL_LEFT: f64 = 64.0;
const TL_TOP: f64 = 26.0;
const LANE: f64 = 30.0;
const BAR: f64 = 22.0;
/// The width of a character of a bar's label.
const LABEL_CHAR: f64 = 6.3;

/// The timeline's drawing units on the page.
const TL_GRID: TimelineGrid = TimelineGrid {
    left: TL_LEFT,
    top: TL_TOP,
    lane: LANE,
    bar: BAR,
    label_char: LABEL_CHAR,
};

/// A label inside a timeline bar.
fn bar_label(out: &mut String, x: f64, y: f64, ink: &str, label: &str) {
    let _ = write!(
        out,
        "<text x=\"{:.2}\" y=\"{}\" font-size=\"11\" fill=\"{ink}\">{}</text>",
        x + 4.0,
        y + 15.0,
        escape(label)
    );
}

fn timeline(out: &mut String, n: usize, t: &Timeline) {
    let l = t.layout(TL_GRID, TL_WIDTH - TL_LEFT - 24.0);
    let height = l.axis_y + 34.0;
    let _ = write!(
        out,
        "<div class=\"legend\"><span><i class=\"active\"></i>active: the cook is busy</span>\
         <span><i class=\"passive\"></i>passive: the kitchen moves on while it finishes (baking, warming up)</span>\
         <span><i class=\"failed\"></i>failed</span>\
         <span><i class=\"gold\"></i>gold execution time</span></div>\n\
         <div class=\"figure\"><svg class=\"fit\" width=\"{TL_WIDTH}\" height=\"{height}\" viewBox=\"0 0 {TL_WIDTH} {height}\" role=\"img\">\n\
         <defs><pattern id=\"hatch-{n}\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fbe3bf\"/><rect width=\"3\" height=\"6\" fill=\"#f3c27c\"/></pattern></defs>\n"
    );
    timeline_axes(out, t, &l);
    timeline_bars(out, n, t, &l);
    timeline_runs(out, &l);
    timeline_markers(out, &l);
    out.push_str("</svg></div>\n");
    timeline_table(out, t);
}

/// The lanes in alternating bands, the time axis with its ticks and gridlines.
fn timeline_axes(out: &mut String, t: &Timeline, l: &TimelineLayout) {
    let plot = l.plot;
    for lane in 0..t.lanes {
        let y = l.lane_top(lane);
        let fill = if lane % 2 == 0 { "#f5f7fa" } else { "#ffffff" };
        let _ = writeln!(
            out,
            "<rect x=\"{TL_LEFT}\" y=\"{y}\" width=\"{plot}\" height=\"{LANE}\" fill=\"{fill}\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#7b8794\" text-anchor=\"end\">lane {}</text>",
            TL_LEFT - 8.0,
            y + LANE / 2.0 + 4.0,
            lane + 1
        );
    }
    let axis = TimeAxis {
        top: TL_TOP,
        y: l.axis_y,
        left: TL_LEFT,
        right: TL_LEFT + plot,
        caption: "simulated time (s)",
    };
    axis.draw(
        out,
        l.ticks
            .iter()
            .map(|(tick, x)| (x.to_string(), tick.to_string())),
    );
}

/// Each executed action as a bar with its hover text: active in blue, passive hatched in
/// orange, failed in red.
fn timeline_bars(out: &mut String, n: usize, t: &Timeline, l: &TimelineLayout) {
    let hatch = format!("url(#hatch-{n})");
    for (b, placed) in t.bars.iter().zip(&l.bars) {
        let (x1, y, w) = (placed.x, placed.y, placed.width);
        let (fill, stroke, ink) = if b.failed {
            ("#f8d7d7", "#d14343", "#7a1f1f")
        } else if b.passive {
            (hatch.as_str(), "#e59a2f", "#5c3a06")
        } else {
            ("#3f7fd8", "#2f65b3", "#ffffff")
        };
        let _ = write!(
            out,
            "<g><title>#{} {}–{} s{}\n{}</title><rect x=\"{x1:.2}\" y=\"{y}\" width=\"{w:.2}\" height=\"{BAR}\" rx=\"3\" fill=\"{fill}\" stroke=\"{stroke}\"/>",
            b.action,
            b.start,
            b.end,
            if b.passive { " (passive)" } else { "" },
            escape(&b.text)
        );
        if let Some(label) = &placed.label {
            bar_label(out, x1, y, ink, label);
        }
        out.push_str("</g>\n");
    }
}

/// The labels of runs of short bars, on light tabs over the run.
fn timeline_runs(out: &mut String, l: &TimelineLayout) {
    for run in &l.runs {
        let (x1, y, label) = (run.x, run.y, &run.label);
        let _ = write!(
            out,
            "<g><title>{label}: {} actions, {}–{} s</title>",
            run.actions, run.start, run.end
        );
        // Dark on a light tab: the run's bars may leave gaps under its label.
        let _ = write!(
            out,
            "<rect x=\"{:.2}\" y=\"{}\" width=\"{:.2}\" height=\"{}\" rx=\"3\" fill=\"#ffffff\" fill-opacity=\"0.9\"/>",
            x1 + 1.0,
            y + 3.0,
            TL_GRID.label_width(label),
            BAR - 6.0
        );
        bar_label(out, x1, y, "#1f2933", label);
        out.push_str("</g>\n");
    }
}

/// The end and the gold's end as dashed lines labelled above the plot.
fn timeline_markers(out: &mut String, l: &TimelineLayout) {
    let axis_y = l.axis_y;
    for m in &l.markers {
        let (mx, colour) = (m.x, if m.gold { "#b7892b" } else { "#3e4c59" });
        let (anchor, tx) = if m.text_left {
            ("end", mx - 4.0)
        } else {
            ("start", mx + 4.0)
        };
        let _ = writeln!(
            out,
            "<line x1=\"{mx}\" y1=\"{}\" x2=\"{mx}\" y2=\"{axis_y}\" stroke=\"{colour}\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\
             <text x=\"{tx}\" y=\"16\" font-size=\"11\" font-weight=\"600\" fill=\"{colour}\" text-anchor=\"{anchor}\">{}</text>",
            TL_TOP - 4.0,
            escape(&m.text)
        );
    }
}

/// The executed actions as a table, folded away under the figure.
fn timeline_table(out: &mut String, t: &Timeline) {
    out.push_str(
        "<details><summary>Executed actions (start, end, lane)</summary><table>\
         <tr><th>#</th><th>start</th><th>end</th><th>lane</th><th>kind</th><th>action</th></tr>\n",
    );
    for b in &t.bars {
        let kind = match (b.failed, b.passive) {
            (true, _) => "failed",
            (false, true) => "passive",
            (false, false) => "active",
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{kind}</td><td><code>{}</code></td></tr>",
            b.action,
            b.start,
            b.end,
            b.lane + 1,
            escape(&b.text)
        );
    }
    out.push_str("</table></details>\n");
}

fn goals(out: &mut String, n: usize, goals: &[GoalLine]) {
    let reached = goals.iter().filter(|g| g.reached_by.is_some()).count();
    let _ = write!(
        out,
        "<input type=\"checkbox\" class=\"only-missed toggle\" id=\"missed-{n}\">\
         <div class=\"legend\"><span><span class=\"mark ok\">✓</span>{reached} reached</span>\
         <span><span class=\"mark miss\">✗</span>{} missed</span>\
         <label class=\"toggle\" for=\"missed-{n}\">show only missed goals</label></div>\n\
         <table><tr><th>gold</th><th>gold action</th><th>outcome</th></tr>\n",
        goals.len() - reached
    );
    for run in goal_runs(goals) {
        for (i, g) in run.iter().enumerate() {
            let outcome = match (&g.reached_by, i) {
                (Some((action, text)), _) => format!(
                    "<td><span class=\"mark ok\">✓</span>reached by <span title=\"{}\">action {action}</span></td>",
                    escape(text)
                ),
                // A run of missed goals says its reason once, beside all of them.
                (None, 0) if run.len() > 1 => format!(
                    "<td rowspan=\"{}\"><span class=\"mark miss\">✗</span>{}</td>",
                    run.len(),
                    escape(&missed_run_text(run))
                ),
                (None, 0) => format!(
                    "<td><span class=\"mark miss\">✗</span>{}</td>",
                    escape(&g.reason)
                ),
                (None, _) => String::new(),
            };
            let class = if g.reached_by.is_some() {
                "reached"
            } else {
                "missed"
            };
            let _ = writeln!(
                out,
                "<tr class=\"{class}\"><td class=\"num\">{}</td><td><code>{}</code></td>{outcome}</tr>",
                g.gold_action,
                escape(&g.gold_text)
            );
        }
    }
    out.push_str("</table>\n");
}

/// One item of the dish's differences: a coloured badge, then what differs.
fn difference(out: &mut String, class: &str, badge: &str, text: &str) {
    let _ = write!(
        out,
        "<li><span class=\"badge {class}\">{badge}</span> {text}</li>"
    );
}

fn dish(out: &mut String, d: &DishComparison) {
    let x = &d.differences.detail;
    out.push_str("<ul class=\"diffs\">");
    let list = |v: &[String]| escape(&v.join(", "));
    for (items, badge, what) in [
        (
            &x.missing,
            "missing",
            "gold ingredients the prediction lacks",
        ),
        (
            &x.surplus,
            "surplus",
            "predicted ingredients the gold lacks",
        ),
    ] {
        if !items.is_empty() {
            let text = format!("{what}: <b>{}</b>", list(items));
            difference(out, badge, badge, &text);
        }
    }
    for i in x.matched.iter().filter(|i| !i.differing.is_empty()) {
        let text = format!(
            "<b>{}</b> (score {:.2}) differs in {}",
            escape(&i.class),
            i.score,
            list(&i.differing)
        );
        difference(out, "differs", "differs", &text);
    }
    if !x.container_differences.is_empty() {
        difference(out, "differs", "container", &list(&x.container_differences));
    }
    let _ = writeln!(
        out,
        "<li>{} of {} gold ingredients matched; contents {:.2}, container {:.2}; score 0.98 × contents + 0.02 × container = {:.2}</li></ul>",
        x.matched.len(),
        x.matched.len() + x.missing.len(),
        x.contents_ratio,
        x.container_ratio,
        d.score
    );
    let _ = write!(
        out,
        "<div class=\"dishes\"><div class=\"dish\"><h4>Predicted dish</h4><div class=\"from\">output of action {}: <code>{}</code></div><ul class=\"tree\">",
        d.differences.action,
        escape(&d.predicted_text)
    );
    tree(out, &d.predicted, x, Side::Predicted);
    out.push_str(
        "</ul></div><div class=\"dish\"><h4>Gold dish</h4><div class=\"from\">the gold network's primary output</div><ul class=\"tree\">",
    );
    tree(out, &d.gold, x, Side::Gold);
    out.push_str("</ul></div></div>\n");
}

/// The rest of an element's start tag and its content: a printed value in decimals, its exact
/// ratios in the hover.
fn printed(out: &mut String, text: &str) {
    match with_decimals(text) {
        Some(decimal) => {
            let _ = write!(out, " title=\"{}\">{}", escape(text), escape(&decimal));
        }
        None => {
            let _ = write!(out, ">{}", escape(text));
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Side {
    Predicted,
    Gold,
}

fn tree(out: &mut String, node: &DishNode, x: &DishDetail, side: Side) {
    let differing: &[String] = x
        .matched
        .iter()
        .find(|i| i.class == node.class)
        .map_or(&[], |i| i.differing.as_slice());
    let mark = if side == Side::Gold && x.missing.contains(&node.class) {
        Some("missing")
    } else if side == Side::Predicted && x.surplus.contains(&node.class) {
        Some("surplus")
    } else if !differing.is_empty() {
        Some("differs")
    } else {
        None
    };
    let _ = write!(out, "<li><span class=\"entity {}\">", mark.unwrap_or(""));
    if node.count > 1 {
        let _ = write!(out, "<span class=\"count\">{} ×</span>", node.count);
    }
    let _ = write!(out, "<b>{}</b>", escape(&node.class));
    if let Some(a) = &node.amount {
        out.push_str("<span class=\"amount\"");
        printed(out, &format!("{} {}", a.value, a.unit));
        out.push_str("</span>");
    }
    for p in node.properties.iter().filter(|p| p.entity.is_none()) {
        let class = if differing.contains(&p.name) {
            "prop diff"
        } else {
            "prop"
        };
        let text = match &p.value {
            Some(v) => format!("{} {v}", p.name),
            None => p.name.clone(),
        };
        let _ = write!(out, "<span class=\"{class}\"");
        printed(out, &text);
        out.push_str("</span>");
    }
    if let Some(m) = mark {
        let label = if m == "differs" {
            format!("differs: {}", differing.join(", "))
        } else {
            m.to_string()
        };
        let _ = write!(out, "<span class=\"badge {m}\">{}</span>", escape(&label));
    }
    out.push_str("</span>");
    let nested: Vec<_> = node
        .properties
        .iter()
        .filter_map(|p| p.entity.as_ref().map(|e| (p, e)))
        .collect();
    if !nested.is_empty() || !node.parts.is_empty() {
        out.push_str("<ul>");
        for (p, e) in nested {
            let _ = write!(
                out,
                "<li><span class=\"slot-name\">{}:</span><ul>",
                escape(&p.name)
            );
            tree(out, e, x, side);
            out.push_str("</ul></li>");
        }
        for part in &node.parts {
            tree(out, part, x, side);
        }
        out.push_str("</ul>");
    }
    out.push_str("</li>");
}
