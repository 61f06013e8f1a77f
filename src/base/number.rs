//! Numbers as the reference's Lisp sees them: exact integers and ratios, and single floats.
//!
//! The reference reads `1/2` as an exact ratio and `0.5` as a single float, divides integers into
//! exact ratios (mixture fractions such as 23/35) and compares with numeric `=`. Scores differ in
//! the second decimal if this is done in `f64`, so the tower is reproduced here: integer and ratio
//! arithmetic stays exact, anything touching a float becomes an `f32`.

use num_rational::Rational64;
use num_traits::{ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;

/// `==` is structural (`1/2 != 0.5`, as for the printer and Smatch); use [`Number::num_eq`] for
/// Lisp's numeric `=`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// An exact rational; integers have denominator 1.
    Exact(Rational64),
    /// A Lisp single float.
    Float(f32),
}

impl Number {
    pub const ZERO: Number = Number::Exact(Rational64::new_raw(0, 1));

    pub fn int(i: i64) -> Number {
        Number::Exact(Rational64::from_integer(i))
    }

    /// `n/d` reduced; `None` when `d` is zero or the reduced ratio has no `i64` denominator
    /// (`1/-9223372036854775808`, whose sign cannot move to the numerator: a ratio built anyway
    /// would keep a negative denominator, and comparing it divides `i64::MIN` by -1).
    pub fn ratio(n: i64, d: i64) -> Option<Number> {
        let whole = Rational64::from_integer;
        checked(whole(n), whole(d), frac_div).map(Number::Exact)
    }

    pub fn float(f: f32) -> Number {
        Number::Float(f)
    }

    pub fn is_integer(&self) -> bool {
        matches!(self, Number::Exact(r) if r.is_integer())
    }

    pub fn is_float(&self) -> bool {
        matches!(self, Number::Float(_))
    }

    pub fn is_zero(&self) -> bool {
        match self {
            Number::Exact(r) => r.is_zero(),
            Number::Float(f) => *f == 0.0,
        }
    }

    /// The value as a single float (Lisp `float` of a rational rounds to nearest).
    pub fn to_f32(&self) -> f32 {
        match self {
            Number::Exact(r) => ratio_to_f32(*r),
            Number::Float(f) => *f,
        }
    }

    pub fn to_f64(&self) -> f64 {
        match self {
            Number::Exact(r) => r.to_f64().unwrap_or(f64::NAN),
            Number::Float(f) => *f as f64,
        }
    }

    /// Lisp `floor` to an integer (used where the reference loops `value` times).
    pub fn floor_i64(&self) -> i64 {
        match self {
            Number::Exact(r) => r.floor().to_integer(),
            Number::Float(f) => f.floor() as i64,
        }
    }

    fn binary(
        self,
        other: Number,
        exact: impl Fn(Rational64, Rational64) -> Option<Rational64>,
        float: impl Fn(f32, f32) -> f32,
    ) -> Number {
        match (self, other) {
            (Number::Exact(a), Number::Exact(b)) => match exact(a, b) {
                Some(r) => Number::Exact(r),
                // Overflow of i64 ratios: degrade to float rather than panic.
                None => Number::Float(float(ratio_to_f32(a), ratio_to_f32(b))),
            },
            (a, b) => Number::Float(float(a.to_f32(), b.to_f32())),
        }
    }

    #[allow(clippy::should_implement_trait)] // Lisp contagion, not operator overloading
    pub fn add(self, o: Number) -> Number {
        self.binary(o, |a, b| checked(a, b, frac_add), |a, b| a + b)
    }
    #[allow(clippy::should_implement_trait)] // Lisp contagion, not operator overloading
    pub fn sub(self, o: Number) -> Number {
        self.binary(o, |a, b| checked(a, b, frac_sub), |a, b| a - b)
    }
    #[allow(clippy::should_implement_trait)] // Lisp contagion, not operator overloading
    pub fn mul(self, o: Number) -> Number {
        self.binary(o, |a, b| checked(a, b, frac_mul), |a, b| a * b)
    }
    /// Division; `None` on an exact division by zero (a Lisp error in the reference).
    #[allow(clippy::should_implement_trait)]
    pub fn div(self, o: Number) -> Option<Number> {
        match (self, o) {
            (_, Number::Exact(b)) if b.is_zero() => None,
            _ => Some(self.binary(o, |a, b| checked(a, b, frac_div), |a, b| a / b)),
        }
    }

    /// Lisp `max`: the larger argument itself (keeps its type); the first on ties.
    pub fn max(self, o: Number) -> Number {
        if o.num_cmp(&self) == Ordering::Greater {
            o
        } else {
            self
        }
    }

    /// Numeric comparison across exact and float values (exact, as Lisp `<` and `=` do).
    pub fn num_cmp(&self, other: &Number) -> Ordering {
        match (self, other) {
            (Number::Exact(a), Number::Exact(b)) => a.cmp(b),
            (Number::Float(a), Number::Float(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            (Number::Exact(a), Number::Float(b)) => cmp_ratio_float(*a, *b),
            (Number::Float(a), Number::Exact(b)) => cmp_ratio_float(*b, *a).reverse(),
        }
    }

    /// Lisp numeric `=`.
    pub fn num_eq(&self, other: &Number) -> bool {
        self.num_cmp(other) == Ordering::Equal
    }
}

type Frac = (i128, i128);

fn frac_add((an, ad): Frac, (bn, bd): Frac) -> Option<Frac> {
    Some((
        an.checked_mul(bd)?.checked_add(bn.checked_mul(ad)?)?,
        ad.checked_mul(bd)?,
    ))
}
fn frac_sub((an, ad): Frac, (bn, bd): Frac) -> Option<Frac> {
    Some((
        an.checked_mul(bd)?.checked_sub(bn.checked_mul(ad)?)?,
        ad.checked_mul(bd)?,
    ))
}
fn frac_mul((an, ad): Frac, (bn, bd): Frac) -> Option<Frac> {
    Some((an.checked_mul(bn)?, ad.checked_mul(bd)?))
}
fn frac_div((an, ad): Frac, (bn, bd): Frac) -> Option<Frac> {
    Some((an.checked_mul(bd)?, ad.checked_mul(bn)?))
}

/// Exact rational arithmetic through i128 intermediates, reduced back to an i64 ratio.
fn checked(a: Rational64, b: Rational64, op: fn(Frac, Frac) -> Option<Frac>) -> Option<Rational64> {
    let (n, d) = op(
        (*a.numer() as i128, *a.denom() as i128),
        (*b.numer() as i128, *b.denom() as i128),
    )?;
    if d == 0 {
        return None;
    }
    let g = gcd(n.unsigned_abs(), d.unsigned_abs()).max(1) as i128;
    let (mut n, mut d) = (n / g, d / g);
    if d < 0 {
        n = -n;
        d = -d;
    }
    Some(Rational64::new_raw(
        i64::try_from(n).ok()?,
        i64::try_from(d).ok()?,
    ))
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn ratio_to_f32(r: Rational64) -> f32 {
    // Through f64 first: exact for the small ratios that occur, and rounding twice only
    // matters for values no recipe produces.
    (*r.numer() as f64 / *r.denom() as f64) as f32
}

/// Compare an exact ratio with a float exactly (every finite f32 is a dyadic rational).
fn cmp_ratio_float(r: Rational64, f: f32) -> Ordering {
    if f.is_nan() {
        return Ordering::Equal;
    }
    if f.is_infinite() {
        return if f > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    // f = m * 2^e with integer m.
    let bits = f.to_bits();
    let sign = if bits >> 31 == 0 { 1i128 } else { -1i128 };
    let exp = ((bits >> 23) & 0xff) as i32;
    let frac = (bits & 0x7f_ffff) as i128;
    let (m, e) = if exp == 0 {
        (frac, -149)
    } else {
        (frac | 0x80_0000, exp - 150)
    };
    let m = sign * m;
    let (n, d) = (*r.numer() as i128, *r.denom() as i128);
    // Compare n/d with m*2^e  <=>  n * 2^-e with m * d  (d > 0).
    if e >= 0 {
        if e > 60 {
            // |f| is huge compared with any i64 ratio.
            return if m > 0 {
                Ordering::Less
            } else if m < 0 {
                Ordering::Greater
            } else {
                n.cmp(&0)
            };
        }
        n.cmp(&(m * d * (1i128 << e)))
    } else {
        let s = -e;
        if s > 60 {
            // |f| tiny: compare n with 0 unless n is 0.
            return if n != 0 { n.cmp(&0) } else { 0i128.cmp(&m) };
        }
        (n * (1i128 << s)).cmp(&(m * d))
    }
}

impl fmt::Display for Number {
    /// The Lisp printer: `230`, `1/2`, `0.5`, `90.0`, `1.0e7`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Exact(r) if r.is_integer() => write!(f, "{}", r.numer()),
            Number::Exact(r) => write!(f, "{}/{}", r.numer(), r.denom()),
            Number::Float(x) => f.write_str(&lisp_float(*x)),
        }
    }
}

/// Print a single float the way SBCL does: shortest round-trip digits, always with a decimal
/// point, exponent notation outside [1e-3, 1e7).
pub fn lisp_float(x: f32) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 {
            "infinity".into()
        } else {
            "-infinity".into()
        };
    }
    let a = x.abs();
    if a == 0.0 || (1e-3..1e7).contains(&a) {
        let s = format!("{x}");
        if s.contains('.') { s } else { format!("{s}.0") }
    } else {
        // `{:e}` gives shortest digits as d.ddde±x.
        let s = format!("{x:e}");
        let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let mant = if mant.contains('.') {
            mant.to_string()
        } else {
            format!("{mant}.0")
        };
        format!("{mant}e{exp}")
    }
}

/// A number in decimals for people: whole numbers as they are, others to one decimal from 100
/// up, two from 1 up, and three significant digits below 1 (`455.2`, `1.25`, `0.011`).
pub fn decimal(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        return format!("{}", x as i64);
    }
    let places = match x.abs() {
        a if a >= 100.0 => 1,
        a if a >= 1.0 => 2,
        a => (2 - a.log10().floor() as i32).clamp(2, 12) as usize,
    };
    let s = format!("{x:.places$}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// The units a cook measures with a spoon, a cup or by counting, whose amounts read as
/// kitchen fractions; amounts in any other unit (grams, millilitres, minutes, degrees,
/// percents) read as decimals.
pub const MEASURED_BY_SPOON_CUP_OR_COUNT: [&str; 7] = [
    "teaspoon",
    "tablespoon",
    "cup",
    "piece",
    "clove",
    "stalk",
    "handful",
];

/// The common kitchen fractions, by eighths and thirds of a whole.
const KITCHEN_FRACTIONS: [(i64, i64, &str); 9] = [
    (1, 8, "\u{215b}"),
    (1, 4, "\u{bc}"),
    (1, 3, "\u{2153}"),
    (3, 8, "\u{215c}"),
    (1, 2, "\u{bd}"),
    (5, 8, "\u{215d}"),
    (2, 3, "\u{2154}"),
    (3, 4, "\u{be}"),
    (7, 8, "\u{215e}"),
];

/// A number as a cook reads it: a whole number and a common kitchen fraction where the value
/// is exactly that (`1½`, `⅔`, `2¾`; a single float in thirds counts as thirds), decimals
/// otherwise (`1.6`, see [`decimal`]). Never a ratio such as `8/5`.
pub fn kitchen_fraction(n: Number) -> String {
    let x = n.to_f64();
    let (whole, part) = (x.abs().trunc(), x.abs().fract());
    let close = |a: f64, b: f64| match n {
        // An exact ratio's fraction, read as a double, is the fraction to its last bit.
        Number::Exact(_) => (a - b).abs() < 1e-12,
        // A single float holds eighths exactly and thirds to its precision.
        Number::Float(_) => (a - b).abs() < 1e-6,
    };
    let fraction = KITCHEN_FRACTIONS
        .iter()
        .find(|&&(k, d, _)| close(part, k as f64 / d as f64));
    match fraction {
        Some(&(_, _, glyph)) if whole < 1e15 => {
            let sign = if x < 0.0 { "-" } else { "" };
            let whole = if whole == 0.0 {
                String::new()
            } else {
                format!("{}", whole as i64)
            };
            format!("{sign}{whole}{glyph}")
        }
        _ => decimal(x),
    }
}

/// An amount as a cook reads it, `value unit`: kitchen fractions in a unit measured with a
/// spoon, a cup or by counting (`1½ teaspoon`), decimals in any other (`112.5 g`). The one
/// rule every answer for people prints amounts by; JSON and networks keep the exact value.
pub fn amount(value: Number, unit: &str) -> String {
    if MEASURED_BY_SPOON_CUP_OR_COUNT.contains(&unit) {
        format!("{} {unit}", kitchen_fraction(value))
    } else {
        format!("{} {unit}", decimal(value.to_f64()))
    }
}

/// Every number of a printed amount or value (`2276/5 g`, `90.0 minute`) as a decimal, and
/// a share in `percent` (the simulator's fraction of a mixture: `59/359 percent`) as a
/// percent (`16.4 %`).
pub fn plain_numbers(printed: &str) -> String {
    let words: Vec<&str> = printed.split(' ').collect();
    let plain = words.iter().enumerate().map(|(i, word)| {
        let share = words.get(i + 1) == Some(&"percent");
        let measured = words
            .get(i + 1)
            .is_some_and(|unit| MEASURED_BY_SPOON_CUP_OR_COUNT.contains(unit));
        match (lisp_number(word), *word) {
            (Some(x), _) if share => decimal(x.to_f64() * 100.0),
            (Some(x), _) if measured => kitchen_fraction(x),
            (Some(x), _) => decimal(x.to_f64()),
            (None, "percent") => "%".to_string(),
            (None, word) => word.to_string(),
        }
    });
    plain.collect::<Vec<_>>().join(" ")
}

/// A number as the Lisp printer writes it: `230`, `2276/5`, `90.0`, `1.5d0`.
fn lisp_number(word: &str) -> Option<Number> {
    if let Some((n, d)) = word.split_once('/') {
        return Number::ratio(n.parse().ok()?, d.parse().ok()?);
    }
    let starts_like_a_number = word
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || c == '-');
    if !starts_like_a_number {
        return None;
    }
    let x: f64 = word.replace("d0", "").parse().ok()?;
    Some(match word.parse::<i64>() {
        Ok(i) => Number::int(i),
        Err(_) => Number::float(x as f32),
    })
}

/// The reference's two-decimal score format (`~$` as the released executable prints it): the
/// value as a single float, its shortest decimal representation, rounded half up.
pub fn two_decimals(n: Number) -> String {
    round_decimal_str(n.to_f32(), 2)
}

/// Round the shortest decimal representation of `x` half-up (away from zero) to `places` digits.
pub fn round_decimal_str(x: f32, places: usize) -> String {
    if !x.is_finite() {
        return lisp_float(x);
    }
    let neg = x < 0.0;
    // Shortest round-trip digits in plain notation.
    let s = format!("{}", x.abs());
    let (int_part, frac_part) = s.split_once('.').unwrap_or((&s, ""));
    let mut digits: Vec<u8> = int_part.bytes().map(|b| b - b'0').collect();
    let int_len = digits.len();
    let mut frac: Vec<u8> = frac_part.bytes().map(|b| b - b'0').collect();
    let round_up = frac.len() > places && frac[places] >= 5;
    frac.resize(places, 0);
    digits.extend_from_slice(&frac);
    if round_up {
        let mut i = digits.len();
        loop {
            if i == 0 {
                digits.insert(0, 1);
                break;
            }
            i -= 1;
            if digits[i] == 9 {
                digits[i] = 0;
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    let int_len = int_len + (digits.len() - int_len - places);
    let mut out = String::new();
    if neg && digits.iter().any(|&d| d != 0) {
        out.push('-');
    }
    for (i, d) in digits.iter().enumerate() {
        if i == int_len {
            out.push('.');
        }
        out.push((b'0' + d) as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lisp_printing() {
        assert_eq!(Number::int(230).to_string(), "230");
        assert_eq!(Number::ratio(1, 2).unwrap().to_string(), "1/2");
        assert_eq!(Number::float(0.5).to_string(), "0.5");
        assert_eq!(Number::float(90.0).to_string(), "90.0");
        assert_eq!(Number::float(1.0e7).to_string(), "1.0e7");
    }

    #[test]
    fn exactness_and_contagion() {
        let a = Number::int(230).div(Number::int(350)).unwrap();
        assert_eq!(a.to_string(), "23/35");
        assert!(Number::ratio(1, 2).unwrap().num_eq(&Number::float(0.5)));
        assert!(
            !Number::ratio(1, 3)
                .unwrap()
                .num_eq(&Number::float(1.0 / 3.0))
        );
        assert!(Number::int(1).add(Number::float(0.5)).is_float());
        assert!(Number::int(1).div(Number::ZERO).is_none());
        // A denominator of -2^63 has no positive i64 counterpart: no ratio, not a wrapped one.
        assert_eq!(Number::ratio(1, i64::MIN), None);
        assert_eq!(Number::ratio(i64::MIN, -1), None);
        assert_eq!(Number::ratio(2, -4), Number::ratio(-1, 2));
    }

    #[test]
    fn two_decimal_rounding() {
        assert_eq!(two_decimals(Number::float(0.755)), "0.76");
        assert_eq!(two_decimals(Number::ratio(5, 13).unwrap()), "0.38");
        assert_eq!(two_decimals(Number::ratio(1, 8).unwrap()), "0.13");
        assert_eq!(two_decimals(Number::int(1)), "1.00");
        assert_eq!(two_decimals(Number::ZERO), "0.00");
        assert_eq!(two_decimals(Number::float(0.999)), "1.00");
        assert_eq!(two_decimals(Number::float(0.8693333)), "0.87");
    }

    #[test]
    fn amounts_read_as_kitchen_fractions_or_decimals_never_ratios() {
        let r = |n, d| Number::ratio(n, d).unwrap();
        assert_eq!(amount(r(8, 5), "teaspoon"), "1.6 teaspoon");
        assert_eq!(amount(r(3, 2), "teaspoon"), "1\u{bd} teaspoon");
        assert_eq!(amount(r(2, 3), "cup"), "\u{2154} cup");
        assert_eq!(amount(r(9, 4), "tablespoon"), "2\u{bc} tablespoon");
        assert_eq!(amount(r(1, 8), "teaspoon"), "\u{215b} teaspoon");
        assert_eq!(amount(r(7, 3), "piece"), "2\u{2153} piece");
        assert_eq!(amount(Number::float(0.75), "cup"), "\u{be} cup");
        assert_eq!(amount(Number::float(1.0 / 3.0), "cup"), "\u{2153} cup");
        assert_eq!(amount(Number::int(2), "teaspoon"), "2 teaspoon");
        assert_eq!(amount(r(225, 2), "g"), "112.5 g");
        assert_eq!(amount(r(2276, 5), "g"), "455.2 g");
        assert_eq!(amount(r(1, 3), "g"), "0.333 g");
        assert_eq!(amount(Number::float(90.0), "minute"), "90 minute");
        assert_eq!(kitchen_fraction(r(-1, 2)), "-\u{bd}");
        assert_eq!(kitchen_fraction(r(1, 5)), "0.2");
        assert_eq!(decimal(2.0 / 3.0), "0.667");
    }
}
