//! The time axis the page's figures share (the timeline's and the trajectory's): a gridline and
//! a label at every tick, then the axis line with its caption at its end.

use std::fmt::Write;

/// Where a figure's time axis goes, in drawing units.
pub(super) struct TimeAxis<'a> {
    /// Where the gridlines start (the figure's first row).
    pub top: f64,
    /// The axis line's height; the tick labels and the caption go below it.
    pub y: f64,
    pub left: f64,
    pub right: f64,
    pub caption: &'a str,
}

impl TimeAxis<'_> {
    /// Draw the axis: `ticks` are each tick's x and label, as the figure writes them.
    pub(super) fn draw(&self, out: &mut String, ticks: impl IntoIterator<Item = (String, String)>) {
        let TimeAxis {
            top,
            y,
            left,
            right,
            caption,
        } = self;
        for (x, label) in ticks {
            let _ = writeln!(
                out,
                "<line x1=\"{x}\" y1=\"{top}\" x2=\"{x}\" y2=\"{}\" stroke=\"#e1e6ec\"/>\
                 <text x=\"{x}\" y=\"{}\" font-size=\"11\" fill=\"#616e7c\" text-anchor=\"middle\">{label}</text>",
                y + 5.0,
                y + 18.0
            );
        }
        let _ = writeln!(
            out,
            "<line x1=\"{left}\" y1=\"{y}\" x2=\"{right}\" y2=\"{y}\" stroke=\"#9aa5b1\"/>\
             <text x=\"{right}\" y=\"{}\" font-size=\"11\" fill=\"#616e7c\" text-anchor=\"end\">{caption}</text>",
            y + 32.0
        );
    }
}
