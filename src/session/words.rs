//! The session's observations in plain words: the reference's Lisp errors as what went wrong
//! in the kitchen, numbers as decimals (`455.2 g`, not `2276/5 g`), kitchen times as
//! `h:mm:ss`. Words only: nothing here changes what
//! runs or how it scores.

#[cfg(test)]
use crate::base::number::plain_numbers;
use crate::base::number::{Number, decimal};

/// The words of the reference's "no applicable method" errors (see `primitives::errors`).
const NO_METHOD: &str = "There is no applicable method for the generic function ";

/// An error primitive `action` signalled in plain words; any other message as it is.
pub fn plain_error(message: &str, action: &str) -> String {
    lisp_words(message, action).unwrap_or_else(|| message.to_string())
}

/// The reference's Lisp error texts (`primitives::errors::LispError`) in plain words.
fn lisp_words(message: &str, action: &str) -> Option<String> {
    if let Some(rest) = message.strip_prefix(NO_METHOD) {
        let (generic, called) = rest.split_once(" when called with ")?;
        let slot = lisp_name(generic.trim_start_matches("(SETF ").trim_end_matches(')'));
        let setting = generic.starts_with("(SETF ");
        return Some(match called {
            "NIL" | "arguments (NIL)" | "arguments (T NIL)" => format!(
                "an object the action needs is not in the kitchen (its {slot} was asked of nothing)"
            ),
            class => {
                let class = lisp_name(class.trim_start_matches("a ").trim_start_matches("an "));
                let verb = match setting {
                    true => "sets",
                    false => "reads",
                };
                format!("cannot {action} {class}: {action} {verb} `{slot}`, which {class} has not")
            }
        });
    }
    if let Some(ty) = message.strip_prefix("The value NIL is not of type ") {
        return Some(match ty {
            "REAL" => "a number the action needs (an amount or a ready time) is missing".into(),
            "KITCHEN-ENTITY" => "an object to move or change is no longer in the kitchen".into(),
            other => format!("a {} the action needs is missing", lisp_name(other)),
        });
    }
    if message == "arithmetic error DIVISION-BY-ZERO signalled" {
        return Some("a division by zero: an amount or a count is 0".into());
    }
    if let Some(assertion) = message
        .strip_prefix("The assertion ")
        .and_then(|a| a.strip_suffix(" failed."))
    {
        return Some(format!("a check of the reference failed: {assertion}"));
    }
    if let Some(rest) = message.strip_prefix("The ingredient ") {
        let (ingredient, unit) = rest.split_once(" has no entry in the conversion table")?;
        let ingredient = lisp_name(ingredient);
        return Some(match unit.strip_prefix(" for unit ") {
            Some(unit) => format!(
                "{ingredient} cannot be weighed in {}: the conversion table has no gram weight \
                 for that unit",
                lisp_name(unit.trim_end_matches('!'))
            ),
            None => format!(
                "{ingredient} cannot be weighed: the conversion table has no gram weight for it"
            ),
        });
    }
    if let Some(ingredient) = message.strip_suffix(" has no amount") {
        return Some(format!("{} has no amount", lisp_name(ingredient)));
    }
    if message == "The function of a non-location place is undefined" {
        return Some("the place given is not a kitchen location".into());
    }
    None
}

/// A Lisp symbol (`COARSE-SALT`) as words (`coarse salt`).
fn lisp_name(symbol: &str) -> String {
    symbol.to_lowercase().replace('-', " ")
}

/// A kitchen time, in seconds, as `h:mm:ss` (`4:10:50`); `m:ss` under an hour, and a time
/// that is not a whole number of seconds as a decimal of seconds.
pub fn clock(t: Number) -> String {
    let x = t.to_f64();
    if x.fract() != 0.0 || x < 0.0 {
        return format!("{} s", decimal(x));
    }
    let s = x as u64;
    match s / 3600 {
        0 => format!("{}:{:02}", s / 60, s % 60),
        h => format!("{h}:{:02}:{:02}", s / 60 % 60, s % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulation::primitives::errors::LispError;

    #[test]
    fn the_references_errors_read_in_plain_words() {
        let said = |e: LispError| plain_error(&e.to_string(), "peel");
        assert_eq!(
            said(LispError::CalledWithClass {
                generic: "(SETF PEELED)".into(),
                class: "COARSE-SALT".into()
            }),
            "cannot peel coarse salt: peel sets `peeled`, which coarse salt has not"
        );
        assert_eq!(
            said(LispError::CONTENTS_OF_NIL),
            "an object the action needs is not in the kitchen (its contents was asked of nothing)"
        );
        assert_eq!(
            said(LispError::NIL_NOT_REAL),
            "a number the action needs (an amount or a ready time) is missing"
        );
        assert_eq!(
            said(LispError::NoConversionForUnit {
                ingredient: "PANEER".into(),
                unit: "PIECE".into()
            }),
            "paneer cannot be weighed in piece: the conversion table has no gram weight for \
             that unit"
        );
        assert_eq!(
            said(LispError::DivisionByZero),
            "a division by zero: an amount or a count is 0"
        );
        assert_eq!(plain_error("not a Lisp error", "peel"), "not a Lisp error");
    }

    #[test]
    fn numbers_and_times_read_as_decimals_and_clocks() {
        assert_eq!(plain_numbers("2276/5 g"), "455.2 g");
        assert_eq!(plain_numbers("25/2276 percent"), "1.1 %");
        assert_eq!(plain_numbers("59/359 percent"), "16.43 %");
        assert_eq!(plain_numbers("90.0 minute"), "90 minute");
        assert_eq!(plain_numbers("5/4 teaspoon"), "1\u{bc} teaspoon");
        assert_eq!(plain_numbers("8/5 teaspoon"), "1.6 teaspoon");
        assert_eq!(clock(Number::int(15050)), "4:10:50");
        assert_eq!(clock(Number::int(210)), "3:30");
        assert_eq!(decimal(2.0 / 3.0), "0.667");
    }
}
