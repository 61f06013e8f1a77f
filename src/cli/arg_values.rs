//! The values the command line's flags take (metric words, shards, thresholds, output
//! formats): their parsers and enums, shared by the commands' argument structs, so a command
//! kept in a file of its own (`ray_score.rs`) takes them without importing `args.rs`.

use crate::metrics::metric::{Metric, diet_word};
use crate::report::batch_report::{Shard, Threshold};
use crate::service::comparison::CompareFormat;
use crate::service::scoring::Format;

/// A metric name or `none`: a typo is an error with the closest name, not a silently empty
/// column (the reference ignores unknown names; a CI job would record an empty score as a pass).
pub(super) fn metric_word(s: &str) -> Result<String, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(s.to_owned());
    }
    Metric::named(s)
        .map(|_| s.to_owned())
        .map_err(|e| e.to_string())
}

/// What the evaluation's `--metrics` takes: a metric word, or `diet:NAME` (a typo in the
/// diet's name is an error with the closest one).
pub(super) fn evaluation_metric_word(s: &str) -> Result<String, String> {
    match diet_word(s) {
        Some(diet) => diet.map(|_| s.to_owned()).map_err(|e| e.to_string()),
        None => metric_word(s),
    }
}

pub(super) fn parse_shard(s: &str) -> Result<Shard, String> {
    s.parse()
}

pub(super) fn parse_threshold(s: &str) -> Result<Threshold, String> {
    s.parse()
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub(super) enum FormatArg {
    Csv,
    Json,
    Junit,
    Markdown,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Csv => Format::Csv,
            FormatArg::Json => Format::Json,
            FormatArg::Junit => Format::Junit,
            FormatArg::Markdown => Format::Markdown,
        }
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub(super) enum CompareFormatArg {
    Text,
    Csv,
    Json,
    Markdown,
    Html,
}

impl From<CompareFormatArg> for CompareFormat {
    fn from(f: CompareFormatArg) -> CompareFormat {
        match f {
            CompareFormatArg::Text => CompareFormat::Text,
            CompareFormatArg::Csv => CompareFormat::Csv,
            CompareFormatArg::Json => CompareFormat::Json,
            CompareFormatArg::Markdown => CompareFormat::Markdown,
            CompareFormatArg::Html => CompareFormat::Html,
        }
    }
}
