//! The kitchen's ingredients as a translator sees them: names to match recipe words against
//! and the units each can be measured in without the simulator lacking a conversion.

use super::quantity::TextUnit;
use crate::base::number::Number;
use crate::base::suggest::closest;
use crate::simulation::Model;
use crate::world::{Entity, Value};
use num_rational::Rational64;

/// Recipe words for kitchen ingredients whose names share no token with them.
const SYNONYMS: [(&str, &str); 17] = [
    ("confectioner's sugar", "powdered-white-sugar"),
    ("icing sugar", "powdered-white-sugar"),
    ("confectioners sugar", "powdered-white-sugar"),
    ("powdered sugar", "powdered-white-sugar"),
    ("sugar", "white-sugar"),
    ("flour", "all-purpose-flour"),
    ("cereal", "corn-flakes"),
    ("cornflakes", "corn-flakes"),
    ("olive oil", "extra-virgin-olive-oil"),
    ("pepper", "ground-black-pepper"),
    ("black pepper", "ground-black-pepper"),
    ("cinnamon", "ground-cinnamon"),
    ("nutmeg", "ground-nutmeg"),
    ("scallion", "green-onion"),
    ("dill", "dried-dill-weed"),
    ("mozzarella", "grated-mozzarella"),
    ("cilantro", "fresh-cilantro"),
];

/// Words that describe rather than name an ingredient.
const NOISE: [&str; 24] = [
    "large",
    "small",
    "medium",
    "fresh",
    "freshly",
    "finely",
    "thinly",
    "chopped",
    "sliced",
    "diced",
    "minced",
    "unsweetened",
    "unsalted",
    "softened",
    "melted",
    "cold",
    "warm",
    "of",
    "the",
    "and",
    "or",
    "similar",
    "kellogg's",
    "packed",
];

/// One ingredient class the kitchen holds.
#[derive(Clone, Debug)]
pub struct Stock {
    pub class: String,
    tokens: Vec<String>,
    grams_per_piece: Option<Number>,
    by_teaspoon: bool,
    by_litre: bool,
}

/// The kitchen's ingredient classes, in kitchen order.
#[derive(Clone, Debug)]
pub struct Inventory {
    pub stocks: Vec<Stock>,
}

/// A measured amount the simulator can convert to grams.
#[derive(Clone, Debug, PartialEq)]
pub struct Measure {
    pub quantity: Number,
    pub unit: &'static str,
}

impl Inventory {
    /// Every ingredient class in the model's initial kitchen.
    pub fn of(model: &Model) -> Inventory {
        let mut classes = Vec::new();
        collect(model, &model.kitchen, &mut classes);
        let stocks = classes
            .into_iter()
            .map(|class| {
                let id = model.onto.class_id(&class);
                let per = |unit: &str| {
                    id.zip(model.onto.class_id(unit))
                        .and_then(|(c, u)| model.onto.grams_per(c, u))
                };
                Stock {
                    tokens: class.split('-').map(singular).collect(),
                    grams_per_piece: per("piece"),
                    by_teaspoon: per("teaspoon").is_some(),
                    by_litre: per("l").is_some(),
                    class,
                }
            })
            .collect();
        Inventory { stocks }
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.stocks.iter().map(|s| s.class.as_str())
    }

    /// The stock best named by `words` (an ingredient description or an instruction's
    /// mention): synonyms first, then token overlap (a token matches exactly or within one
    /// edit for words of five letters or more); `None` when nothing shares a token.
    pub fn find(&self, words: &str) -> Option<&Stock> {
        let tokens = content_tokens(words);
        if tokens.is_empty() {
            return None;
        }
        let joined = tokens.join(" ");
        let mut best: Option<(i64, &Stock)> = None;
        for stock in &self.stocks {
            let matched = stock
                .tokens
                .iter()
                .filter(|t| tokens.iter().any(|w| similar(w, t)))
                .count();
            if matched == 0 {
                continue;
            }
            let head = tokens
                .last()
                .is_some_and(|h| stock.tokens.iter().any(|t| similar(h, t)));
            // Per mille: all of the class's tokens matter most, then the head noun, then how
            // much of the description the class explains.
            let score = (matched * 1000 / stock.tokens.len()) as i64 * 2
                + if head { 600 } else { 0 }
                + (matched * 100 / tokens.len()) as i64;
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, stock));
            }
        }
        let synonym = SYNONYMS
            .iter()
            .filter(|(words, _)| contains_phrase(&joined, words))
            .max_by_key(|(words, _)| words.len())
            .and_then(|(_, class)| self.stocks.iter().find(|s| s.class == *class));
        match (best, synonym) {
            // A full match of a class's name beats a synonym (`brown sugar` is not `sugar`).
            (Some((score, stock)), _) if score >= 2000 => Some(stock),
            (_, Some(s)) => Some(s),
            (Some((score, stock)), None) if score >= 1600 => Some(stock),
            _ => None,
        }
    }

    /// Names close to a word, for messages.
    pub fn suggestions(&self, word: &str) -> Vec<&str> {
        closest(word, self.names(), 3)
    }
}

impl Stock {
    /// The amount in a unit the simulator converts for this ingredient: the written unit
    /// where the conversion table has it, else spoons or litres, else grams (a cup is 48
    /// teaspoons or 240 ml; water's density where only grams work).
    pub fn measure(&self, quantity: Rational64, unit: TextUnit) -> Measure {
        let r = |n: i64, d: i64| Rational64::new(n, d);
        let (q, u): (Rational64, &'static str) = match unit {
            TextUnit::Gram => (quantity, "g"),
            TextUnit::Kilogram => (quantity * 1000, "g"),
            TextUnit::Ounce => (quantity * r(2835, 100), "g"),
            TextUnit::Pound => (quantity * r(4536, 10), "g"),
            TextUnit::Teaspoon if self.by_teaspoon => (quantity, "teaspoon"),
            TextUnit::Tablespoon if self.by_teaspoon => (quantity, "tablespoon"),
            TextUnit::Cup if self.by_teaspoon => (quantity * 48, "teaspoon"),
            TextUnit::Pinch if self.by_teaspoon => (quantity * r(1, 8), "teaspoon"),
            TextUnit::Millilitre if self.by_litre => (quantity, "ml"),
            TextUnit::Litre if self.by_litre => (quantity, "l"),
            TextUnit::Cup if self.by_litre => (quantity * 240, "ml"),
            TextUnit::Teaspoon => (quantity * 5, "g"),
            TextUnit::Tablespoon => (quantity * 15, "g"),
            TextUnit::Cup => (quantity * 240, "g"),
            TextUnit::Pinch => (quantity * r(1, 2), "g"),
            TextUnit::Millilitre => (quantity, "g"),
            TextUnit::Litre => (quantity * 1000, "g"),
            TextUnit::Piece if self.grams_per_piece.is_some() => (quantity, "piece"),
            TextUnit::Piece => (quantity * 100, "g"),
        };
        Measure {
            quantity: rational(q),
            unit: u,
        }
    }
}

/// A ratio as a network constant: integers stay integers, other values become exact ratios
/// with at most two decimals' precision (`1/8` stays `1/8`, `28.35` becomes `567/20`).
fn rational(q: Rational64) -> Number {
    let q = if *q.denom() > 1000 {
        Rational64::new((q * 100).round().to_integer(), 100)
    } else {
        q
    };
    Number::ratio(*q.numer(), *q.denom()).unwrap_or(Number::ZERO)
}

fn collect(model: &Model, e: &Entity, out: &mut Vec<String>) {
    let (Some(contents), Some(amount)) =
        (model.onto.slot_id("contents"), model.onto.slot_id("amount"))
    else {
        return;
    };
    if e.has(amount) && model.onto.is_a_name(e.class, "ingredient") {
        let name = model.onto.class_name(e.class).to_string();
        if !out.contains(&name) {
            out.push(name);
        }
    }
    if let Some(Value::List(items)) = e.get(contents) {
        for item in items.iter() {
            if let Some(child) = item.as_obj() {
                collect(model, child, out);
            }
        }
    }
}

/// Lower-case word tokens of a description without descriptive words, singular.
pub fn content_tokens(words: &str) -> Vec<String> {
    words
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| w.len() > 1 && !NOISE.contains(w) && !w.chars().all(|c| c.is_ascii_digit()))
        .map(singular)
        .collect()
}

/// A crude singular: `tomatoes` → `tomato`, `cherries` → `cherry`, `eggs` → `egg`.
pub fn singular(w: &str) -> String {
    if let Some(s) = w.strip_suffix("ies").filter(|s| s.len() > 2) {
        return format!("{s}y");
    }
    if let Some(s) = w.strip_suffix("oes") {
        return format!("{s}o");
    }
    match w.strip_suffix('s') {
        Some(s) if s.len() > 2 && !s.ends_with('s') => s.to_string(),
        _ => w.to_string(),
    }
}

fn similar(a: &str, b: &str) -> bool {
    a == b || (a.len() >= 5 && b.len() >= 5 && edit1(a, b))
}

/// Within one edit (a typo or a spelling variant).
fn edit1(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    prefix + suffix + 1 >= a.len().max(b.len())
}

fn contains_phrase(haystack: &str, phrase: &str) -> bool {
    let hay: Vec<&str> = haystack.split(' ').collect();
    let words: Vec<&str> = phrase.split(' ').collect();
    hay.windows(words.len()).any(|w| w == words.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::profile::Profile;

    #[test]
    fn recipe_words_find_kitchen_classes() {
        let model = Model::builtin(Profile::R2024);
        let inv = Inventory::of(&model);
        let find = |w: &str| inv.find(w).map(|s| s.class.clone());
        let cases = [
            ("unsalted butter", Some("butter")),
            ("unsweetened cocoa powder", Some("cocoa-powder")),
            ("caster sugar", Some("caster-sugar")),
            ("icing sugar", Some("powdered-white-sugar")),
            ("brown sugar", Some("brown-sugar")),
            ("all-purpose flour", Some("all-purpose-flour")),
            ("large cucumbers", Some("cucumber")),
            ("onion", Some("onion")),
            ("tomatoes", Some("tomato")),
            ("egs", None),
            ("unicorn tears", None),
        ];
        for (word, class) in cases {
            assert_eq!(find(word).as_deref(), class, "{word}");
        }
    }

    #[test]
    fn amounts_fit_the_conversion_table() {
        let model = Model::builtin(Profile::R2024);
        let inv = Inventory::of(&model);
        let stock = |c: &str| inv.stocks.iter().find(|s| s.class == c).unwrap().clone();
        let m = stock("all-purpose-flour").measure(Rational64::new(3, 2), TextUnit::Cup);
        assert_eq!((m.quantity.to_string(), m.unit), ("72".into(), "teaspoon"));
        let m = stock("milk").measure(Rational64::new(1, 2), TextUnit::Cup);
        assert_eq!((m.quantity.to_string(), m.unit), ("120".into(), "ml"));
        let m = stock("cucumber").measure(Rational64::new(4, 1), TextUnit::Piece);
        assert_eq!((m.quantity.to_string(), m.unit), ("4".into(), "piece"));
        let m = stock("salt").measure(Rational64::new(1, 8), TextUnit::Teaspoon);
        assert_eq!(
            m.unit,
            if stock("salt").by_teaspoon {
                "teaspoon"
            } else {
                "g"
            }
        );
    }
}
