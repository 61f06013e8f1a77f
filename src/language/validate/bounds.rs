//! Bounds on the quantities a network may state, far above any real recipe but low enough that
//! the simulator's cost (linear in the objects a quantity makes) stays small: the reference
//! runs out of memory or never ends on `(fetch ?b ?ks ?k large-bowl 4294967296)`, two billion
//! tomato pieces or a portion of `1/9223372036854775807 g`.
//!
//! The reference accepts quantities beyond the kitchen's stock, so these bounds are not the
//! stock: a cook may ask for 20 kg of flour in a kitchen holding 5. They are orders of magnitude
//! above the benchmark's largest values (a few kilograms, a few dozen pieces, hours).

use crate::base::number::Number;
use crate::language::ast::Predicate;
use num_traits::Signed;

/// The largest magnitude of any quantity, whatever its unit: a tonne in grams, 11 days in
/// seconds, a million degrees.
pub const MAX_QUANTITY: i64 = 1_000_000;
/// The smallest magnitude of a quantity other than 0: a milligram.
pub const MIN_QUANTITY: f64 = 0.001;
/// The largest denominator of an exact fraction (`1/3` is fine, `1/9223372036854775807` not).
pub const MAX_DENOMINATOR: i64 = 1_000_000;
/// The most objects one action makes: containers or tools fetched, pieces taken, portions cut.
/// Each is an object of the kitchen state, so this bounds the cost of one action.
pub const MAX_OBJECTS: i64 = 1_000;
/// The most portions one `portion-and-arrange` cuts (checked when it runs: the count depends on
/// the dough). Portions of a third of a gram are a mistake a parser makes, and the reference
/// scores them, so this is well above a dough's weight in such portions.
pub const MAX_PORTIONS: i64 = 20_000;

/// Shown with every bound violated.
pub const HINT: &str =
    "quantities are bounded far above any real recipe; this one would exhaust the simulator";

/// Why the number `n`, argument `index` of `p` (a `quantity`), is out of bounds.
pub fn violation(p: &Predicate, index: usize, n: &Number) -> Option<String> {
    let value = n.to_f64();
    if !value.is_finite() {
        return Some(format!("the quantity {n} is not a finite number"));
    }
    if value.abs() > MAX_QUANTITY as f64 {
        return Some(format!(
            "the quantity {n} is over the bound of {MAX_QUANTITY}"
        ));
    }
    if value != 0.0 && value.abs() < MIN_QUANTITY {
        return Some(format!(
            "the quantity {n} is under the bound of {MIN_QUANTITY} (other than 0)"
        ));
    }
    if let Number::Exact(r) = n
        && r.denom().abs() > MAX_DENOMINATOR
    {
        return Some(format!(
            "the quantity {n} has a denominator over the bound of {MAX_DENOMINATOR}"
        ));
    }
    let counted = match object_count(p, index) {
        Some(what) if value.abs() > MAX_OBJECTS as f64 => what,
        _ => return None,
    };
    Some(format!(
        "the quantity {n} is over the bound of {MAX_OBJECTS} {counted} in one action"
    ))
}

/// What a quantity counts, when each unit of it is an object the simulator makes: the objects
/// `fetch` brings, or pieces (`... tomato 3 piece`).
fn object_count(p: &Predicate, index: usize) -> Option<&'static str> {
    if p.name == "fetch" {
        return Some("objects fetched");
    }
    match p.args.get(index + 1) {
        Some(unit) if unit.is_sym("piece") => Some("pieces"),
        _ => None,
    }
}
