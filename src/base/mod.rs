//! What every layer stands on and none of it knows a network: exact numbers as the reference
//! computes them, the reference profile, a seeded generator, the time budget of one recipe,
//! did-you-mean suggestions, and reading a file a user names (regular files only, bounded).

pub mod budget;
pub mod number;
pub mod profile;
pub mod random;
pub mod regular_file;
pub mod suggest;
