//! Primitives: fetch, fetch-and-proportion.

use crate::simulation::Primitive;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[];
