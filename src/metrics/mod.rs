//! Scores of a predicted network against the gold network.

pub mod smatch;
