//! The data built into the crate, read once: the benchmark's manifest and the primitive
//! catalogue. Plain data, below the language that uses it.

pub mod catalogue;
pub mod data_file;
pub mod manifest;
pub mod substitute_roles;
