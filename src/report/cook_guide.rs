//! The cook's guide (`guide`): the simulated schedule of a network told as a cook follows it,
//! as terminal text, Markdown, JSON and a printable HTML page. The guide is built from a run by
//! `service::guide`; this module only says it.

use super::figures::{clock, number};
use super::html::{STYLE, escape};
use crate::base::number::Number;
use serde::{Serialize, Serializer};
use std::collections::HashMap;
use std::fmt::Write;

/// A recipe's schedule: every executed action in start order, the actions that go on by
/// themselves (timers), the times the cook has nothing to do, and the total time.
#[derive(Clone, Debug, Serialize)]
pub struct Guide {
    pub recipe: String,
    /// Seconds until the last thing the network makes is ready: the execution time.
    #[serde(serialize_with = "seconds")]
    pub total_time: Number,
    pub steps: Vec<GuideStep>,
    pub timers: Vec<Timer>,
    pub idle: Vec<IdleGap>,
}

/// One executed action.
#[derive(Clone, Debug, Serialize)]
pub struct GuideStep {
    /// 1-based position of the action in the network.
    pub action: usize,
    pub line: usize,
    /// The action as written.
    pub text: String,
    /// What the cook does and what it makes, in words (`preheat oven: an oven at 180 °C`).
    pub words: String,
    /// Kitchen time, in seconds, when it starts and when its result is ready.
    #[serde(serialize_with = "seconds")]
    pub start: Number,
    #[serde(serialize_with = "seconds")]
    pub end: Number,
    /// Whether it goes on by itself once started (see [`Timer`]).
    pub timer: bool,
    /// Other actions (1-based) whose time overlaps this one's, at most [`MAX_LISTED`].
    pub parallel: Vec<usize>,
    /// How many more overlap than are listed.
    #[serde(skip_serializing_if = "is_zero")]
    pub parallel_omitted: usize,
}

/// An action the kitchen finishes by itself after the cook started it: an oven heating, a
/// bake, butter coming to room temperature. The cook is free from `cook_free` until `ready`.
#[derive(Clone, Debug, Serialize)]
pub struct Timer {
    pub action: usize,
    pub line: usize,
    /// The action's primitive in words (`preheat oven`).
    pub what: String,
    /// What it makes, in words.
    pub makes: String,
    /// The temperature the simulation gave what it makes (`180 °C`), when it gave one.
    pub temperature: Option<String>,
    #[serde(serialize_with = "seconds")]
    pub start: Number,
    #[serde(serialize_with = "seconds")]
    pub cook_free: Number,
    #[serde(serialize_with = "seconds")]
    pub ready: Number,
}

/// A time the cook has nothing to do but wait for timers.
#[derive(Clone, Debug, Serialize)]
pub struct IdleGap {
    #[serde(serialize_with = "seconds")]
    pub from: Number,
    #[serde(serialize_with = "seconds")]
    pub to: Number,
    /// The timers (their actions, 1-based) running meanwhile, at most [`MAX_LISTED`].
    pub waiting_for: Vec<usize>,
    #[serde(skip_serializing_if = "is_zero")]
    pub waiting_for_omitted: usize,
}

/// The most actions listed beside one step or gap: a network that starts thousands of timers
/// at once keeps a guide whose size grows with its length, not with its square.
pub const MAX_LISTED: usize = 20;

fn seconds<S: Serializer>(n: &Number, s: S) -> Result<S::Ok, S::Error> {
    number(*n).serialize(s)
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Guide {
    /// `41:45 (2505 s), 42 steps`.
    fn headline(&self) -> String {
        format!(
            "{} ({} s), {} steps",
            clock(self.total_time),
            self.total_time,
            self.steps.len()
        )
    }

    /// The line of each action, by its 1-based position: looked up once per listed
    /// neighbour of every step, so a search of the steps each time would make a long guide's
    /// text cost the square of its steps.
    fn line_index(&self) -> HashMap<usize, usize> {
        let mut index = HashMap::with_capacity(self.steps.len());
        for s in &self.steps {
            index.entry(s.action).or_insert(s.line);
        }
        index
    }

    /// `lines 4, 13` (and `and 3 more`): the actions listed beside a step or gap.
    fn lines(index: &HashMap<usize, usize>, actions: &[usize], omitted: usize) -> String {
        let lines: Vec<String> = actions
            .iter()
            .filter_map(|a| index.get(a))
            .map(|l| l.to_string())
            .collect();
        let s = if lines.len() == 1 { "" } else { "s" };
        let more = match omitted {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        format!("line{s} {}{more}", lines.join(", "))
    }

    /// `preheat oven now: 180 °C, ready at 14:45`.
    fn timer_sentence(t: &Timer) -> String {
        let temperature = t
            .temperature
            .as_ref()
            .map_or(String::new(), |t| format!("{t}, "));
        format!("{} now: {temperature}ready at {}", t.what, clock(t.ready))
    }

    /// `waiting for lines 4, 13`, or `waiting` when no timer runs (a gap the simulation left).
    fn gap_sentence(index: &HashMap<usize, usize>, g: &IdleGap) -> String {
        if g.waiting_for.is_empty() {
            return "waiting".into();
        }
        format!(
            "waiting for {}",
            Self::lines(index, &g.waiting_for, g.waiting_for_omitted)
        )
    }

    /// The guide for a terminal.
    pub fn text(&self) -> String {
        let index = self.line_index();
        let mut out = format!("cook's guide for {}: {}\n\n", self.recipe, self.headline());
        out.push_str("  start     end  line  step\n");
        for s in &self.steps {
            let mark = if s.timer { "  (timer)" } else { "" };
            let _ = writeln!(
                out,
                "{:>7} {:>7} {:>5}  {}{mark}",
                clock(s.start),
                clock(s.end),
                s.line,
                s.words
            );
            if !s.parallel.is_empty() {
                let alongside = Self::lines(&index, &s.parallel, s.parallel_omitted);
                let _ = writeln!(out, "{:22}alongside {alongside}", "");
            }
        }
        if !self.timers.is_empty() {
            out.push_str("\ntimers:\n");
            for t in &self.timers {
                let _ = writeln!(
                    out,
                    "{:>7}  {} (line {}: {})",
                    clock(t.start),
                    Self::timer_sentence(t),
                    t.line,
                    t.makes
                );
            }
        }
        if !self.idle.is_empty() {
            out.push_str("\nidle:\n");
            for g in &self.idle {
                let _ = writeln!(
                    out,
                    "{:>7}–{}  {}",
                    clock(g.from),
                    clock(g.to),
                    Self::gap_sentence(&index, g)
                );
            }
        }
        let _ = writeln!(out, "\ntotal time: {}", clock(self.total_time));
        out
    }

    /// The guide as Markdown: the steps as a table, timers and idle times as lists.
    pub fn markdown(&self) -> String {
        let index = self.line_index();
        let cell = |s: &str| s.replace('|', "\\|");
        let mut out = format!(
            "# Cook's guide: {}\n\nTotal time {}.\n\n",
            self.recipe,
            self.headline()
        );
        out.push_str("| start | end | line | step | alongside |\n|---:|---:|---:|---|---|\n");
        for s in &self.steps {
            let alongside = if s.parallel.is_empty() {
                String::new()
            } else {
                Self::lines(&index, &s.parallel, s.parallel_omitted)
            };
            let timer = if s.timer { " (timer)" } else { "" };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {}{timer} | {alongside} |",
                clock(s.start),
                clock(s.end),
                s.line,
                cell(&s.words)
            );
        }
        if !self.timers.is_empty() {
            out.push_str("\n## Timers\n\n");
            for t in &self.timers {
                let _ = writeln!(
                    out,
                    "- **{}** {} (line {}: {})",
                    clock(t.start),
                    Self::timer_sentence(t),
                    t.line,
                    t.makes
                );
            }
        }
        if !self.idle.is_empty() {
            out.push_str("\n## Idle\n\n");
            for g in &self.idle {
                let _ = writeln!(
                    out,
                    "- **{}–{}** {}",
                    clock(g.from),
                    clock(g.to),
                    Self::gap_sentence(&index, g)
                );
            }
        }
        out
    }

    /// The guide as one self-contained page (no script, nothing fetched), laid out for
    /// printing.
    pub fn html(&self) -> String {
        let index = self.line_index();
        let recipe = escape(&self.recipe);
        let mut out = format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{recipe} — cook's guide</title>\n<style>\n{STYLE}{GUIDE_STYLE}</style>\n\
             </head>\n<body>\n<main class=\"guide\">\n<header class=\"page\">\n\
             <h1>Cook's guide: {recipe}</h1>\n<div class=\"chips\"><span class=\"chip\">total \
             time <b>{}</b></span><span class=\"chip\"><b>{}</b> steps</span>\
             <span class=\"chip\"><b>{}</b> timers</span></div>\n</header>\n",
            clock(self.total_time),
            self.steps.len(),
            self.timers.len()
        );
        if !self.timers.is_empty() {
            out.push_str("<section class=\"recipe timers\">\n<h3>Timers</h3>\n<ul>\n");
            for t in &self.timers {
                let _ = writeln!(
                    out,
                    "<li><b class=\"at\">{}</b> {} <span class=\"muted\">(line {}: {})</span></li>",
                    clock(t.start),
                    escape(&Self::timer_sentence(t)),
                    t.line,
                    escape(&t.makes)
                );
            }
            out.push_str("</ul>\n</section>\n");
        }
        out.push_str(
            "<section class=\"recipe steps\">\n<h3>Steps</h3>\n<table>\n<tr><th>start</th>\
             <th>end</th><th>line</th><th>step</th><th>alongside</th></tr>\n",
        );
        for s in &self.steps {
            let alongside = if s.parallel.is_empty() {
                String::new()
            } else {
                Self::lines(&index, &s.parallel, s.parallel_omitted)
            };
            let _ = writeln!(
                out,
                "<tr{}><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                 <td>{}<div class=\"mono muted\">{}</div></td><td>{}</td></tr>",
                if s.timer { " class=\"timer\"" } else { "" },
                clock(s.start),
                clock(s.end),
                s.line,
                escape(&s.words),
                escape(&s.text),
                escape(&alongside)
            );
        }
        out.push_str("</table>\n</section>\n");
        if !self.idle.is_empty() {
            out.push_str("<section class=\"recipe idle\">\n<h3>Idle</h3>\n<ul>\n");
            for g in &self.idle {
                let _ = writeln!(
                    out,
                    "<li><b class=\"at\">{}–{}</b> {}</li>",
                    clock(g.from),
                    clock(g.to),
                    escape(&Self::gap_sentence(&index, g))
                );
            }
            out.push_str("</ul>\n</section>\n");
        }
        out.push_str("</main>\n</body>\n</html>\n");
        out
    }
}

/// The guide's own rules after the report's style: portrait pages, timers marked, rows kept
/// whole on paper.
const GUIDE_STYLE: &str = "\
main.guide { max-width: 960px; }
main.guide section.recipe { break-before: auto; padding-top: 16px; }
main.guide h3 { margin-top: 0; }
.muted { color: var(--muted); }
.at { font-variant-numeric: tabular-nums; margin-right: 6px; }
tr.timer td { background: #fff8ec; }
tr.timer td:first-child { border-left: 4px solid var(--passive); }
@page { size: A4 portrait; margin: 14mm; }
@media print { main.guide section.recipe { break-before: auto; } ul li { break-inside: avoid; } }
";
