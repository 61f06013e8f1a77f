//! Primitives: bake, boil, fry, bring-to-temperature, leave-for-time, refrigerate, preheat-oven, melt.

use crate::simulation::Primitive;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[];
