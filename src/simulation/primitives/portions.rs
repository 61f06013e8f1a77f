//! Primitives: portion-and-arrange, shape, flatten.

use crate::simulation::Primitive;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[];
