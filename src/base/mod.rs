//! What every layer stands on and none of it knows a network: exact numbers as the reference
//! computes them, the reference profile, a seeded generator, the time budget of one recipe, and
//! did-you-mean suggestions.

pub mod budget;
pub mod number;
pub mod profile;
pub mod random;
pub mod suggest;
