//! The MUHAI Cooking Language: `.solution` text → syntax tree, with located diagnostics, and
//! each recipe's dependency graph (`dependencies`), which validation checks.

pub mod ast;
pub mod dependencies;
pub mod diagnostic;
pub mod parse;
pub mod validate;
