//! The library's layers called directly: the grammar and the language, kitchen data, diets,
//! metrics, Smatch, translation, substitution and scaling, the agent session and its agents,
//! and the desktop launcher (with the `gui` feature).

#[path = "../common/mod.rs"]
mod common;

mod agents;
mod diet;
mod extending;
mod grammar;
#[cfg(feature = "gui")]
mod gui;
mod guide;
mod kitchen_data;
mod language;
mod language_props;
mod metrics;
mod rewrite;
mod session;
mod session_admissible;
mod smatch;
mod smatch_exact;
mod substitute_roles;
mod trajectory;
mod translate;
mod translate_llm;
mod translate_llm_e2e;
mod variation;
