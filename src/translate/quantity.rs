//! The amount at the start of an ingredient line: `1 1/2 cups`, `½ tsp`, `200 grams`, `2-3`.

use num_rational::Rational64;

/// A unit as written in recipe text, before it is fitted to the kitchen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextUnit {
    Gram,
    Kilogram,
    Millilitre,
    Litre,
    Teaspoon,
    Tablespoon,
    Cup,
    Ounce,
    Pound,
    Pinch,
    /// A count of things (also cloves, stalks, slices, cans and the like).
    Piece,
}

/// Words naming a unit, singular forms (a plural `s` is stripped before lookup).
const UNIT_WORDS: [(&str, TextUnit); 30] = [
    ("g", TextUnit::Gram),
    ("gr", TextUnit::Gram),
    ("gram", TextUnit::Gram),
    ("kg", TextUnit::Kilogram),
    ("kilogram", TextUnit::Kilogram),
    ("ml", TextUnit::Millilitre),
    ("milliliter", TextUnit::Millilitre),
    ("millilitre", TextUnit::Millilitre),
    ("l", TextUnit::Litre),
    ("liter", TextUnit::Litre),
    ("litre", TextUnit::Litre),
    ("tsp", TextUnit::Teaspoon),
    ("teaspoon", TextUnit::Teaspoon),
    ("tbsp", TextUnit::Tablespoon),
    ("tbs", TextUnit::Tablespoon),
    ("tablespoon", TextUnit::Tablespoon),
    ("cup", TextUnit::Cup),
    ("c", TextUnit::Cup),
    ("oz", TextUnit::Ounce),
    ("ounce", TextUnit::Ounce),
    ("lb", TextUnit::Pound),
    ("pound", TextUnit::Pound),
    ("pinch", TextUnit::Pinch),
    ("dash", TextUnit::Pinch),
    ("piece", TextUnit::Piece),
    ("clove", TextUnit::Piece),
    ("stalk", TextUnit::Piece),
    ("slice", TextUnit::Piece),
    ("can", TextUnit::Piece),
    ("head", TextUnit::Piece),
];

/// An ingredient line split into amount, unit and the words naming the ingredient.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IngredientLine {
    pub quantity: Rational64,
    pub unit: TextUnit,
    /// The ingredient's description without amount, unit, parentheses and anything after a
    /// comma (`unsalted butter, at room temperature` → `unsalted butter`).
    pub name: String,
    /// The whole line in lower case, for preparation words (`sliced`, `chopped`).
    pub line: String,
}

/// Parse an ingredient line. A line without a number is one piece (`salt to taste`).
pub fn parse_line(line: &str) -> IngredientLine {
    let lower = line.to_lowercase();
    let no_parens = strip_parentheses(&lower);
    let spaced = spread_glued_units(&no_parens);
    let mut words: Vec<&str> = spaced.split_whitespace().collect();
    let (quantity, used) = leading_quantity(&words);
    words.drain(..used);
    let mut unit = TextUnit::Piece;
    if let Some(w) = words.first()
        && let Some(u) = unit_word(w)
    {
        unit = u;
        words.remove(0);
        if words.first() == Some(&"of") {
            words.remove(0);
        }
    }
    let rest = words.join(" ");
    let name = rest.split(',').next().unwrap_or("").trim().to_string();
    IngredientLine {
        quantity: quantity.unwrap_or_else(|| Rational64::from_integer(1)),
        unit,
        name,
        line: lower,
    }
}

fn strip_parentheses(s: &str) -> String {
    let mut depth = 0;
    s.chars()
        .filter(|c| {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    return false;
                }
                _ => {}
            }
            depth == 0
        })
        .collect()
}

/// `200g` → `200 g`, `½cup` → `½ cup`.
fn spread_glued_units(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut prev_numeric = false;
    for c in s.chars() {
        if prev_numeric && c.is_alphabetic() {
            out.push(' ');
        }
        prev_numeric = c.is_ascii_digit() || vulgar(c).is_some();
        out.push(c);
    }
    out
}

fn unit_word(w: &str) -> Option<TextUnit> {
    let w = w.trim_end_matches('.');
    let singular = w.strip_suffix("es").filter(|s| s.ends_with("inch"));
    let singular = singular.or_else(|| w.strip_suffix('s').filter(|s| s.len() > 1));
    [Some(w), singular]
        .into_iter()
        .flatten()
        .find_map(|w| UNIT_WORDS.iter().find(|(k, _)| *k == w).map(|(_, u)| *u))
}

/// The amount written by the first words (`1`, `1/2`, `1 1/2`, `½`, `1½`, `0.5`, `2-3` takes
/// the first) and how many words it took.
fn leading_quantity(words: &[&str]) -> (Option<Rational64>, usize) {
    let Some(first) = words.first().and_then(|w| number(w)) else {
        return (None, 0);
    };
    match words.get(1).and_then(|w| number(w)) {
        // `1 1/2`: a whole number followed by a proper fraction.
        Some(frac) if first.is_integer() && frac < Rational64::from_integer(1) => {
            (Some(first + frac), 2)
        }
        _ => (Some(first), 1),
    }
}

/// One word as a number: integers, decimals, `a/b`, unicode fractions alone or after digits;
/// a range `2-3` is its first number.
pub fn number(word: &str) -> Option<Rational64> {
    let word = word.split(['-', '–']).next()?;
    if word.is_empty() {
        return None;
    }
    if let Some((a, b)) = word.split_once('/') {
        let (a, b) = (a.parse::<i64>().ok()?, b.parse::<i64>().ok()?);
        return (b != 0).then(|| Rational64::new(a, b));
    }
    let last = word.chars().last()?;
    if let Some(frac) = vulgar(last) {
        let whole = &word[..word.len() - last.len_utf8()];
        let whole = if whole.is_empty() {
            0
        } else {
            whole.parse::<i64>().ok()?
        };
        return Some(Rational64::from_integer(whole) + frac);
    }
    if let Some((int, dec)) = word.split_once('.') {
        let digits = u32::try_from(dec.len()).ok().filter(|d| *d <= 6)?;
        let denom = 10i64.pow(digits);
        let int = if int.is_empty() {
            0
        } else {
            int.parse::<i64>().ok()?
        };
        return Some(Rational64::new(
            int * denom + dec.parse::<i64>().ok()?,
            denom,
        ));
    }
    word.parse::<i64>().ok().map(Rational64::from_integer)
}

fn vulgar(c: char) -> Option<Rational64> {
    let (n, d) = match c {
        '½' => (1, 2),
        '⅓' => (1, 3),
        '⅔' => (2, 3),
        '¼' => (1, 4),
        '¾' => (3, 4),
        '⅕' => (1, 5),
        '⅛' => (1, 8),
        '⅜' => (3, 8),
        '⅝' => (5, 8),
        '⅞' => (7, 8),
        _ => return None,
    };
    Some(Rational64::new(n, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> Rational64 {
        Rational64::new(n, d)
    }

    #[test]
    fn amounts_units_and_names() {
        let cases = [
            (
                "1 1/2 cups all-purpose flour, sifted",
                r(3, 2),
                TextUnit::Cup,
                "all-purpose flour",
            ),
            ("½ tsp salt", r(1, 2), TextUnit::Teaspoon, "salt"),
            (
                "1½ Tablespoons (20 g) sugar",
                r(3, 2),
                TextUnit::Tablespoon,
                "sugar",
            ),
            (
                "200g unsalted butter, at room temperature",
                r(200, 1),
                TextUnit::Gram,
                "unsalted butter",
            ),
            (
                "2-3 large cucumbers",
                r(2, 1),
                TextUnit::Piece,
                "large cucumbers",
            ),
            ("0.25 l of milk", r(1, 4), TextUnit::Litre, "milk"),
            ("salt to taste", r(1, 1), TextUnit::Piece, "salt to taste"),
            (
                "3 cloves garlic, minced",
                r(3, 1),
                TextUnit::Piece,
                "garlic",
            ),
        ];
        for (line, quantity, unit, name) in cases {
            let l = parse_line(line);
            assert_eq!(
                (l.quantity, l.unit, l.name.as_str()),
                (quantity, unit, name),
                "{line}"
            );
        }
    }
}
