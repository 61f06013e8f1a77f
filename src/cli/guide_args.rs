//! `guide`: its arguments and their translation into the service's options.

use super::Session;
use crate::service::guide::{self, GuideFormat, GuideOptions};
use crate::service::outcome::Outcome;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub(super) struct GuideArgs {
    pub(super) file: PathBuf,
    /// The recipe to guide (default: the first in the file).
    #[arg(long)]
    pub(super) recipe: Option<String>,
    /// text: for a terminal; markdown: the steps as a table, timers and idle times as lists;
    /// json: total_time (seconds), steps, timers and idle; html: one page laid out for printing.
    #[arg(long, value_enum, default_value = "text")]
    pub(super) format: GuideFormat,
    /// The file to write (default: standard output).
    #[arg(short, long)]
    pub(super) output: Option<PathBuf>,
}

impl GuideArgs {
    pub(super) fn run(self, Session(data, _, out, err, _): Session<'_>) -> Outcome {
        let GuideArgs {
            file,
            recipe,
            format,
            output,
        } = self;
        let opts = GuideOptions {
            file,
            recipe,
            data,
            format,
            output,
        };
        guide::run(&opts, out, err)
    }
}
