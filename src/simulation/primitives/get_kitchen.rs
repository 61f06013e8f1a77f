//! `get-kitchen`: the initial kitchen state, available at time 0.0.

use crate::base::number::Number;
use crate::simulation::{Call, Primitive, SimError};
use crate::world::Value;

pub const PRIMITIVES: &[(&str, &dyn Primitive)] = &[("get-kitchen", &get_kitchen)];

fn get_kitchen(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let ks = call.model.kitchen.clone();
    // A float zero, as in the reference: a network of only `get-kitchen` takes "0.0".
    call.bind("kitchen", 1.0, Value::Obj(ks), Some(Number::float(0.0)))
}
