//! Primitives: mix, beat, mingle, shake.

use crate::simulation::Primitive;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[];
