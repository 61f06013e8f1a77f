//! The data built into the crate, read once: the benchmark's manifest, the primitive
//! catalogue and the diet table. Plain data, below the language that uses it.

pub mod catalogue;
pub mod data_file;
pub mod diet_table;
pub mod manifest;
pub mod primitive_words;
pub mod splits;
pub mod substitute_roles;
