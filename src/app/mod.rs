//! Command implementations behind the command-line front end, kept out of `src/bin` so the
//! binary stays a thin argument parser.

pub mod check;
pub mod evaluate;
pub mod fetch;
