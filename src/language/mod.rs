//! The MUHAI Cooking Language: `.solution` text → syntax tree, with located diagnostics.

pub mod ast;
pub mod diagnostic;
pub mod parse;
pub mod validate;
