//! Primitives: cover, uncover, line.

use crate::simulation::Primitive;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[];
