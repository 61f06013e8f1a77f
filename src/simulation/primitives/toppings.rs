//! Primitives: sprinkle, dip, spread, grease, flour, top-with.

use crate::simulation::Primitive;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[];
