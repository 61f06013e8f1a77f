//! Every ingredient amount of a network times a factor (`scale --factor 1.5`, `--servings`):
//! the constant amounts of [`INGREDIENT_AMOUNTS`](super::INGREDIENT_AMOUNTS), exactly, with
//! counts rounded as a cook rounds them. Portion sizes, tool counts, times and temperatures
//! stay as they are.

use super::{COUNT_UNITS, Rewrite, constant_amount, named_ingredient, unit_is};
use crate::base::number::{self, Number, amount as readable};
use crate::data::catalogue::Catalogue;
use crate::language::ast::{Arg, Recipe};
use crate::world::ontology::Ontology;
use std::fmt;

/// The largest factor: a hundred times a recipe is a catering order, not a cook's question.
pub const MAX_FACTOR: i64 = 100;
/// The smallest factor is its inverse, a hundredth.
pub const MIN_FACTOR_DENOMINATOR: i64 = 100;
/// The most servings asked for or stated.
pub const MAX_SERVINGS: u32 = 10_000;
/// The most decimals a factor is written with: its exact value is a ratio of `i64`s.
const MAX_DECIMALS: usize = 9;

/// Why a factor, or a count of servings, is no scaling `scale` takes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FactorError {
    #[error("the factor `{0}` is not a number (such as 2, 1.5 or 3/2)")]
    NotANumber(String),
    #[error("the factor `{0}` divides by 0")]
    DividesByZero(String),
    /// The factor's exact value, at most 0.
    #[error("a factor of {0} would leave nothing to cook; factors are above 0")]
    NotAboveZero(String),
    /// The factor's exact value, beyond [1/100, 100].
    #[error(
        "a factor of {0} is beyond what scale takes: from 1/{MIN_FACTOR_DENOMINATOR} to {MAX_FACTOR}"
    )]
    OutOfRange(String),
    /// A count of servings (`what`: `--servings` or `--serves`) outside 1 to [`MAX_SERVINGS`].
    #[error("{what} {count}: servings are counted from 1 to {MAX_SERVINGS}")]
    Servings { what: String, count: String },
}

/// A scaling factor, an exact ratio within [1/100, 100].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Factor(Number);

impl Factor {
    /// A factor as written: `2`, `1.5` (read as exactly 3/2) or `3/2`.
    pub fn parse(text: &str) -> Result<Factor, FactorError> {
        let t = text.trim();
        let (negative, t) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let not_a_number = || FactorError::NotANumber(text.to_owned());
        let value = match t.split_once('/') {
            Some((n, d)) => {
                let n: i64 = n.trim().parse().map_err(|_| not_a_number())?;
                let d: i64 = d.trim().parse().map_err(|_| not_a_number())?;
                match Number::ratio(n, d) {
                    Some(value) => value,
                    None if d == 0 => return Err(FactorError::DividesByZero(text.to_owned())),
                    None => return Err(not_a_number()),
                }
            }
            None => decimal(t).ok_or_else(not_a_number)?,
        };
        Self::checked(if negative {
            Number::ZERO.sub(value)
        } else {
            value
        })
    }

    /// The factor that makes a recipe serving `serves` serve `servings`.
    pub fn servings(servings: u32, serves: u32) -> Result<Factor, FactorError> {
        for (n, what) in [(servings, "--servings"), (serves, "--serves")] {
            if n == 0 || n > MAX_SERVINGS {
                return Err(servings_out_of_range(what, n));
            }
        }
        let value = Number::ratio(i64::from(servings), i64::from(serves))
            .ok_or_else(|| servings_out_of_range("--serves", serves))?;
        Self::checked(value)
    }

    fn checked(value: Number) -> Result<Factor, FactorError> {
        if value.num_cmp(&Number::ZERO).is_le() {
            return Err(FactorError::NotAboveZero(value.to_string()));
        }
        let smallest = Number::ratio(1, MIN_FACTOR_DENOMINATOR).unwrap_or(Number::ZERO);
        if value.num_cmp(&Number::int(MAX_FACTOR)).is_gt() || value.num_cmp(&smallest).is_lt() {
            return Err(FactorError::OutOfRange(value.to_string()));
        }
        Ok(Factor(value))
    }

    /// The exact value.
    pub fn value(self) -> Number {
        self.0
    }
}

/// Why `n` servings (`what`: `--servings` or `--serves`) is no count scale takes, for a
/// number of any size (a front end whose integers are larger than `u32` says it too).
pub fn servings_out_of_range(what: &str, n: impl fmt::Display) -> FactorError {
    FactorError::Servings {
        what: what.to_owned(),
        count: n.to_string(),
    }
}

impl fmt::Display for Factor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// `1.5` as the exact 3/2; `None` for anything but digits with at most one point.
fn decimal(t: &str) -> Option<Number> {
    let (whole, fraction) = t.split_once('.').unwrap_or((t, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty())
        || !digits(whole)
        || !digits(fraction)
        || fraction.len() > MAX_DECIMALS
        || whole.len() > 12
    {
        return None;
    }
    let scale = 10i64.pow(fraction.len() as u32);
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let fraction: i64 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().ok()?
    };
    Number::ratio(whole.checked_mul(scale)?.checked_add(fraction)?, scale)
}

/// A counted amount whose exact multiple was rounded.
#[derive(Clone, Debug, PartialEq)]
pub struct Rounding {
    /// Index of the action.
    pub predicate: usize,
    /// The ingredient the action fetches, when it names one.
    pub ingredient: Option<String>,
    pub unit: String,
    pub original: Number,
    /// The original times the factor.
    pub exact: Number,
    pub rounded: Number,
}

impl Rounding {
    /// The factor this amount was really scaled by.
    pub fn effective_factor(&self) -> Number {
        self.rounded.div(self.original).unwrap_or(self.rounded)
    }
}

/// A scaled network: the rewrite and the counts rounded.
#[derive(Clone, Debug)]
pub struct Scaled {
    pub rewrite: Rewrite,
    pub rounding: Vec<Rounding>,
}

/// `recipe` with every constant ingredient amount times `factor`; counts (pieces, cloves,
/// stalks) finer than the recipe's own parts rounded as a cook rounds them ([`cook_round`]).
pub fn scale(onto: &Ontology, catalogue: &Catalogue, recipe: &Recipe, factor: Factor) -> Scaled {
    let mut rewrite = Rewrite::of(recipe);
    let mut rounding = Vec::new();
    for (i, p) in recipe.predicates.iter().enumerate() {
        let Some(amount) = constant_amount(onto, catalogue, p) else {
            continue;
        };
        let exact = amount.value.mul(factor.value());
        let unit = onto.class_name(amount.unit_class).to_owned();
        let mut scaled = exact;
        let mut note = format!(
            "{} × {} = {}",
            readable(amount.value, &unit),
            number::decimal(factor.value().to_f64()),
            readable(exact, &unit)
        );
        if unit_is(onto, amount.unit_class, &COUNT_UNITS) && !as_fine_as(exact, amount.value) {
            scaled = cook_round(exact);
            if !scaled.num_eq(&exact) {
                note = format!("{note}, rounded to {}", readable(scaled, &unit));
                rounding.push(Rounding {
                    predicate: i,
                    ingredient: named_ingredient(onto, p).map(|c| onto.class_name(c).to_owned()),
                    unit: unit.clone(),
                    original: amount.value,
                    exact,
                    rounded: scaled,
                });
            }
        }
        let mut after = p.clone();
        after.args[amount.quantity] = Arg::Num(scaled);
        rewrite.set(i, after, note);
    }
    Scaled { rewrite, rounding }
}

/// Whether a cook takes `exact` as it is: the recipe already asks for parts that fine
/// (`1/3 piece` × 2 is `2/3 piece`, and any count times 1 stays as written).
fn as_fine_as(exact: Number, original: Number) -> bool {
    match (exact, original) {
        (Number::Exact(e), Number::Exact(o)) => o.denom() % e.denom() == 0,
        _ => exact.num_eq(&original),
    }
}

/// A count as a cook takes it: the nearest whole number, or below one the nearest half (half
/// an onion, never less); halves round up. A float stays a float, an exact number exact.
pub fn cook_round(n: Number) -> Number {
    let x = n.to_f64();
    let halves = if x >= 1.0 {
        2.0 * (x + 0.5).floor()
    } else {
        (2.0 * x + 0.5).floor().max(1.0)
    };
    if n.is_float() {
        Number::float((halves / 2.0) as f32)
    } else {
        Number::ratio(halves as i64, 2).unwrap_or(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::profile::Profile;
    use crate::language::parse::parse;

    #[test]
    fn factors_are_read_exactly_and_bounded() {
        assert_eq!(Factor::parse("1.5").unwrap().to_string(), "3/2");
        assert_eq!(Factor::parse("3/2").unwrap().to_string(), "3/2");
        assert_eq!(Factor::parse(".25").unwrap().to_string(), "1/4");
        assert_eq!(Factor::parse("100").unwrap().to_string(), "100");
        assert_eq!(Factor::servings(6, 4).unwrap().to_string(), "3/2");
        assert_eq!(
            Factor::parse("0").unwrap_err().to_string(),
            "a factor of 0 would leave nothing to cook; factors are above 0"
        );
        assert_eq!(
            Factor::parse("-2").unwrap_err().to_string(),
            "a factor of -2 would leave nothing to cook; factors are above 0"
        );
        assert_eq!(
            Factor::parse("1e9").unwrap_err().to_string(),
            "the factor `1e9` is not a number (such as 2, 1.5 or 3/2)"
        );
        assert_eq!(
            Factor::parse("100.5").unwrap_err().to_string(),
            "a factor of 201/2 is beyond what scale takes: from 1/100 to 100"
        );
        assert_eq!(
            Factor::parse("1/101").unwrap_err().to_string(),
            "a factor of 1/101 is beyond what scale takes: from 1/100 to 100"
        );
        assert_eq!(
            Factor::parse("1/0").unwrap_err().to_string(),
            "the factor `1/0` divides by 0"
        );
        assert_eq!(
            Factor::parse("1/-9223372036854775808")
                .unwrap_err()
                .to_string(),
            "the factor `1/-9223372036854775808` is not a number (such as 2, 1.5 or 3/2)"
        );
        assert_eq!(
            Factor::servings(0, 4).unwrap_err().to_string(),
            "--servings 0: servings are counted from 1 to 10000"
        );
    }

    #[test]
    fn counts_round_to_wholes_and_below_one_to_halves() {
        let r = |n, d| cook_round(Number::ratio(n, d).unwrap()).to_string();
        assert_eq!(r(5, 2), "3");
        assert_eq!(r(9, 4), "2");
        assert_eq!(r(3, 4), "1");
        assert_eq!(r(1, 4), "1/2");
        assert_eq!(r(1, 10), "1/2");
        assert_eq!(cook_round(Number::float(0.75)).to_string(), "1.0");
    }

    #[test]
    fn counts_as_fine_as_the_recipes_own_stay_as_they_are() {
        let onto = Ontology::builtin(Profile::R2024);
        let catalogue = Catalogue::builtin(Profile::R2024);
        let text = "#r\n(get-kitchen ?k)\n\
            (fetch-and-proportion ?p ?k2 ?k ?c red-bell-pepper 1/3 piece)\n\
            (fetch-and-proportion ?o ?k3 ?k2 ?d onion 0.3 piece)\n";
        let recipe = parse(text).file.recipes.remove(0);
        let amounts = |factor: &str| {
            let scaled = scale(&onto, &catalogue, &recipe, Factor::parse(factor).unwrap());
            let args = |p: usize| scaled.rewrite.recipe.predicates[p].args[5].to_string();
            (args(1), args(2), scaled.rounding.len())
        };
        // Times 1 nothing changes, though a cook rounds neither a third nor 0.3 so.
        assert_eq!(amounts("1"), ("1/3".into(), "0.3".into(), 0));
        // Thirds of a pepper stay thirds; 0.6 of an onion becomes a half.
        assert_eq!(amounts("2"), ("2/3".into(), "0.5".into(), 1));
        // A sixth is finer than the recipe's thirds: a half.
        assert_eq!(amounts("1/2"), ("1/2".into(), "0.5".into(), 2));
    }

    #[test]
    fn amounts_scale_and_counts_round_but_portions_times_and_tools_stay() {
        let onto = Ontology::builtin(Profile::R2024);
        let catalogue = Catalogue::builtin(Profile::R2024);
        let text = "#r\n(get-kitchen ?k)\n\
            (fetch-and-proportion ?b ?k2 ?k ?c butter 200 g)\n\
            (fetch-and-proportion ?e ?k3 ?k2 ?d egg 3 piece)\n\
            (fetch ?t ?k4 ?k3 baking-tray 1)\n\
            (portion-and-arrange ?p ?k5 ?k4 ?b 30 g ?pattern ?counter)\n\
            (bake ?x ?k6 ?k5 ?p ?oven 15 minute 180 degrees-celsius)\n";
        let recipe = parse(text).file.recipes.remove(0);
        let scaled = scale(&onto, &catalogue, &recipe, Factor::parse("1.5").unwrap());
        let lines: Vec<String> = scaled
            .rewrite
            .recipe
            .predicates
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(lines[1], "(fetch-and-proportion ?b ?k2 ?k ?c butter 300 g)");
        assert_eq!(lines[2], "(fetch-and-proportion ?e ?k3 ?k2 ?d egg 5 piece)");
        assert_eq!(
            &lines[3..],
            &recipe.predicates[3..]
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()[..]
        );
        let changed: Vec<usize> = scaled.rewrite.changes.iter().map(|c| c.predicate).collect();
        assert_eq!(changed, [1, 2]);
        assert_eq!(
            scaled.rewrite.changes[1].note,
            "3 piece × 1.5 = 4½ piece, rounded to 5 piece"
        );
        let [rounded] = &scaled.rounding[..] else {
            panic!("one rounding")
        };
        assert_eq!(rounded.ingredient.as_deref(), Some("egg"));
        assert_eq!(rounded.effective_factor().to_string(), "5/3");
    }
}
