//! The built `cookingbot-evaluator` binary as users run it: commands, batches, bad input, the
//! demo, `fetch`, the HTML report, and snapshots of every output format.

#[path = "../common/mod.rs"]
mod common;

mod batch;
mod commands;
mod demo;
mod errors;
mod fetch;
mod html_report;
mod snapshots;
