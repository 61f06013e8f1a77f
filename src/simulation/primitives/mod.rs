//! The primitives: one small unit per primitive or family, all behind [`Primitive`].
//!
//! Which primitives exist and their argument patterns is data (the catalogue); this registry
//! maps each name to the code that gives it meaning.

pub mod common;
mod covering;
mod cutting;
pub mod errors;
mod fetch;
mod get_kitchen;
mod mixing;
mod portions;
mod temperature;
mod toppings;
mod transfer;

use crate::simulation::Primitive;
use std::collections::HashMap;

/// Every implemented primitive by name.
pub fn registry() -> HashMap<&'static str, &'static dyn Primitive> {
    let families: &[&[(&'static str, &'static dyn Primitive)]] = &[
        covering::PRIMITIVES,
        cutting::PRIMITIVES,
        fetch::PRIMITIVES,
        get_kitchen::PRIMITIVES,
        mixing::PRIMITIVES,
        portions::PRIMITIVES,
        temperature::PRIMITIVES,
        toppings::PRIMITIVES,
        transfer::PRIMITIVES,
    ];
    families.iter().flat_map(|f| f.iter().copied()).collect()
}
