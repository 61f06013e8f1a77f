//! A logged session (a trajectory, `session::trajectory`) on the page: every call in
//! order on the kitchen's timeline (x: the kitchen time after the call, y: the call's number),
//! coloured by what became of it, and the same calls as a table with what each was given,
//! its outcome and the session's message.

use super::escape::escape;
use super::time_axis::TimeAxis;
use serde::Serialize;
use std::fmt::Write;

/// The most calls drawn and listed: a log may hold a hundred thousand, and a page of them
/// would not open; the page says how many more there were.
const MAX_SHOWN: usize = 2_000;

/// A trajectory as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct TrajectoryPage {
    /// The log, as named on the command line.
    pub source: String,
    pub recipe: String,
    /// The generated variation the session was on (0: the official task).
    pub variation: u64,
    /// Every call, in the log's order.
    pub steps: Vec<TrajectoryStep>,
}

/// One call of the log.
#[derive(Clone, Debug, Serialize)]
pub struct TrajectoryStep {
    /// The record's number (1 the first after the header).
    pub record: usize,
    /// `act`, `undo`, `progress`, `finish`, `reset`, `look`, `hint` or `admissible`.
    pub call: String,
    /// What the call was given or took: the line, the line taken back, the name looked at.
    pub given: String,
    /// `act`: what became of the line (`ran`, `waiting`, `refused`, ...); empty otherwise.
    pub outcome: String,
    /// What the session answered, in words.
    pub message: String,
    /// The kitchen time after the call, in seconds.
    pub time: f64,
}

const WIDTH: f64 = 1130.0;
const LEFT: f64 = 64.0;
const TOP: f64 = 16.0;
const ROW: f64 = 14.0;
const TICKS: usize = 5;

/// The class (and colour) of a call's mark: the outcome of an `act`, else the call.
fn mark_class(step: &TrajectoryStep) -> &str {
    match step.outcome.as_str() {
        "" => &step.call,
        outcome => outcome,
    }
}

/// The trajectory's section: the figure and the table.
pub fn render(out: &mut String, t: &TrajectoryPage) {
    let shown = &t.steps[..t.steps.len().min(MAX_SHOWN)];
    let variation = match t.variation {
        0 => String::new(),
        v => format!(", variation {v}"),
    };
    let _ = write!(
        out,
        "<section class=\"recipe trajectory\" id=\"trajectory\">\n<h2>Trajectory<span class=\"tag\">{} call(s) on {}{variation}</span></h2>\n\
         <div class=\"source mono\">{}</div>\n",
        t.steps.len(),
        escape(&t.recipe),
        escape(&t.source)
    );
    if shown.is_empty() {
        out.push_str("<p class=\"none\">The log holds no call.</p>\n</section>\n");
        return;
    }
    out.push_str(
        "<div class=\"legend\"><span><i class=\"ran\"></i>ran</span>\
         <span><i class=\"waiting\"></i>waiting</span>\
         <span><i class=\"refused\"></i>refused, rejected or never runs</span>\
         <span><i class=\"failed\"></i>made a failed object</span>\
         <span><i class=\"call\"></i>another call (undo, look, progress, ...)</span></div>\n",
    );
    figure(out, shown);
    table(out, shown);
    if t.steps.len() > shown.len() {
        let _ = writeln!(
            out,
            "<p class=\"none\">{} more call(s) not shown.</p>",
            t.steps.len() - shown.len()
        );
    }
    out.push_str("</section>\n");
}

/// Each call as a mark at its kitchen time, one row per call, joined in order.
fn figure(out: &mut String, steps: &[TrajectoryStep]) {
    let end = steps.iter().map(|s| s.time).fold(0.0_f64, f64::max);
    let span = if end > 0.0 { end } else { 1.0 };
    let plot = WIDTH - LEFT - 24.0;
    let axis_y = TOP + ROW * steps.len() as f64 + 6.0;
    let height = axis_y + 34.0;
    let x = |time: f64| LEFT + time / span * plot;
    let _ = writeln!(
        out,
        "<div class=\"figure\"><svg class=\"fit\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\">"
    );
    let axis = TimeAxis {
        top: TOP,
        y: axis_y,
        left: LEFT,
        right: LEFT + plot,
        caption: "kitchen time after the call (s)",
    };
    let ticks = (0..=TICKS).map(|i| span * i as f64 / TICKS as f64);
    axis.draw(
        out,
        ticks.map(|tick| (format!("{:.2}", x(tick)), format!("{tick:.0}"))),
    );
    let marks: Vec<(f64, f64)> = (steps.iter().enumerate())
        .map(|(i, s)| (x(s.time), TOP + ROW * (i as f64 + 0.5)))
        .collect();
    let points: Vec<String> = marks
        .iter()
        .map(|(x, y)| format!("{x:.2},{y:.2}"))
        .collect();
    let _ = writeln!(
        out,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#9aa5b1\"/>",
        points.join(" ")
    );
    for (s, (cx, cy)) in steps.iter().zip(&marks) {
        let _ = writeln!(
            out,
            "<circle class=\"step {}\" cx=\"{cx:.2}\" cy=\"{cy:.2}\" r=\"4\"><title>#{} {} at {} s: {}\n{}</title></circle>",
            escape(mark_class(s)),
            s.record,
            escape(&s.call),
            s.time,
            escape(&s.given),
            escape(&s.message)
        );
    }
    out.push_str("</svg></div>\n");
}

/// The calls as a table: number, kitchen time, call, what it was given, outcome, message.
fn table(out: &mut String, steps: &[TrajectoryStep]) {
    out.push_str(
        "<table class=\"trajectory\"><tr><th>#</th><th>kitchen time (s)</th><th>call</th>\
         <th>given</th><th>outcome</th><th>message</th></tr>\n",
    );
    for s in steps {
        let _ = writeln!(
            out,
            "<tr class=\"{}\"><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            escape(mark_class(s)),
            s.record,
            s.time,
            escape(&s.call),
            escape(&s.given),
            escape(&s.outcome),
            escape(&s.message).replace('\n', "<br>")
        );
    }
    out.push_str("</table>\n");
}
