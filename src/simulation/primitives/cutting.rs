//! Primitives: cut, mash, peel, seed, wash, grind.

use crate::simulation::Primitive;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[];
