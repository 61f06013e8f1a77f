//! The built `cookingbot-evaluator` binary as users run it: commands, batches, bad input, the
//! demo, `fetch`, the HTML report, extensions, diets, `play`, the tool server, and snapshots of every output
//! format. Its fresh-clone tests build in a target directory of their own
//! (`common::FreshClone`), so the test binaries run in any order.

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
mod heldout;
mod html_report;
mod input;
#[cfg(feature = "mcp")]
mod json_answers;
#[cfg(feature = "mcp")]
mod mcp;
mod play;
mod rewrite;
mod snapshots;
mod user_benchmark;
