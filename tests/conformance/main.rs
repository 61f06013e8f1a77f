//! Conformance with the reference: its results on every public case, the gold networks'
//! execution times, and properties of the simulator on every gold network.

#[path = "../common/mod.rs"]
mod common;

mod execution_time;
mod reference;
mod simulation_props;
