//! The built `cookingbot-evaluator` binary as users run it: commands, batches, bad input, the
//! demo, `fetch`, the HTML report, and snapshots of every output format. Named to run after the
//! other test binaries: its fresh-clone tests rebuild `conformance` and the evaluator in the
//! shared target directory.

#[path = "../common/mod.rs"]
mod common;

mod batch;
mod bounds;
mod commands;
mod compare;
mod demo;
mod diet;
mod errors;
mod extension;
mod fetch;
mod guide;
mod html_report;
mod input;
mod play;
mod snapshots;
mod user_benchmark;
