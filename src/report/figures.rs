//! How a report writes the reference's numbers and kitchen times: JSON numbers without float
//! noise and `m:ss` clocks. Apart from the report model so every writer and answer can use them.

use crate::base::number::Number;

/// A number as JSON: integers stay integers, ratios and single floats become the nearest
/// double of their shortest decimal form (`0.755`, not `0.7549999952316284`).
pub fn number(n: Number) -> serde_json::Value {
    match n {
        n if n.is_integer() => serde_json::Value::from(n.floor_i64()),
        Number::Float(x) => shortest(x),
        n => serde_json::Value::from(n.to_f64()),
    }
}

/// A kitchen time (the simulator counts seconds) as `m:ss`: 2400 is `40:00`; a time that is
/// not a whole number of seconds is shown as the number it is.
pub fn clock(t: Number) -> String {
    if t.is_integer() || (t.is_float() && t.to_f64().fract() == 0.0) {
        let s = t.floor_i64();
        format!("{}:{:02}", s / 60, s % 60)
    } else {
        format!("{t} s")
    }
}

/// An amount a report holds as a JSON number, as a cook reads it (`base::number::amount`:
/// `1½ teaspoon`, `112.5 g`); a value that is no number is printed as it is.
pub fn amount(value: &serde_json::Value, unit: &str) -> String {
    let n = match (value.as_i64(), value.as_f64()) {
        (Some(i), _) => Number::int(i),
        (None, Some(x)) => Number::float(x as f32),
        _ => return format!("{value} {unit}"),
    };
    crate::base::number::amount(n, unit)
}

fn shortest(x: f32) -> serde_json::Value {
    x.to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(serde_json::Value::Null, serde_json::Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_shows_minutes_and_seconds() {
        assert_eq!(clock(Number::int(2400)), "40:00");
        assert_eq!(clock(Number::int(65)), "1:05");
        assert_eq!(clock(Number::float(0.0)), "0:00");
        assert_eq!(clock(Number::float(1.5)), "1.5 s");
        assert_eq!(clock(Number::ratio(1, 2).expect("a ratio")), "1/2 s");
    }

    #[test]
    fn an_amount_of_a_report_reads_as_a_cook_reads_it() {
        assert_eq!(
            amount(&number(Number::ratio(8, 3).unwrap()), "piece"),
            "2\u{2154} piece"
        );
        assert_eq!(amount(&serde_json::json!(1.6), "teaspoon"), "1.6 teaspoon");
        assert_eq!(amount(&serde_json::json!(112.5), "g"), "112.5 g");
        assert_eq!(amount(&serde_json::json!(null), "g"), "null g");
    }
}
