//! Primitives: transfer-contents, transfer-items, crack, separate-eggs, drain, sift.

use crate::simulation::Primitive;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[];
