//! The reference's run-time errors, word for word.
//!
//! A Lisp error in a primitive makes the reference refuse the whole file, and the refusal's
//! message is compared with the reference's: so every text a primitive can fail with is here,
//! once, rather than spelled out at each place that raises it.

use crate::simulation::SimError;
use std::fmt;

/// One error the reference's primitives signal.
#[derive(Clone, Debug, PartialEq)]
pub enum LispError {
    /// A slot accessor (`generic`) called on NIL, as an object the reference did not find.
    CalledWithNil {
        generic: &'static str,
    },
    /// A generic function called with an argument list that holds NIL, e.g. `(NIL)` or
    /// `(T NIL)` for a setter.
    CalledWithArguments {
        generic: &'static str,
        arguments: &'static str,
    },
    /// A generic function called on an object of a class that has no such slot.
    CalledWithClass {
        generic: String,
        class: String,
    },
    /// NIL where a value of `expected` (`REAL`, `KITCHEN-ENTITY`) is needed.
    NilNotOfType {
        expected: &'static str,
    },
    DivisionByZero,
    /// An assertion of the reference's code that failed.
    AssertionFailed {
        assertion: &'static str,
    },
    /// `convert-to-g` on an ingredient absent from the conversion table.
    NoConversion {
        ingredient: String,
    },
    /// `convert-to-g` on an ingredient the table has, but not in `unit`.
    NoConversionForUnit {
        ingredient: String,
        unit: String,
    },
    /// An ingredient without an amount where one is needed.
    NoAmount {
        ingredient: String,
    },
    /// A store that is not a kitchen location (the reference calls an undefined function).
    NonLocationPlace,
}

impl LispError {
    /// An object to move, change or bind that is no longer in the kitchen.
    pub const NOT_KITCHEN_ENTITY: LispError = LispError::NilNotOfType {
        expected: "KITCHEN-ENTITY",
    };

    /// A container the reference looked for and did not find, asked for its contents.
    pub const CONTENTS_OF_NIL: LispError = LispError::nil("CONTENTS");

    /// A time computed from an input that has no availability time.
    pub const NIL_NOT_REAL: LispError = LispError::NilNotOfType { expected: "REAL" };

    /// A tool or container to mark used, or to bind, that is no longer in the kitchen.
    pub const USED_OF_NIL: LispError = LispError::nil_argument("USED");

    /// A given tool to mark used that the reference did not find.
    pub const SETF_USED_OF_NIL: LispError = LispError::nil_argument("(SETF USED)");

    /// [`LispError::CalledWithNil`] of an accessor.
    pub const fn nil(generic: &'static str) -> LispError {
        LispError::CalledWithNil { generic }
    }

    /// [`LispError::CalledWithArguments`] with the single argument NIL.
    pub const fn nil_argument(generic: &'static str) -> LispError {
        LispError::CalledWithArguments {
            generic,
            arguments: "(NIL)",
        }
    }
}

impl fmt::Display for LispError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const NO_METHOD: &str = "There is no applicable method for the generic function";
        match self {
            LispError::CalledWithNil { generic } => {
                write!(f, "{NO_METHOD} {generic} when called with NIL")
            }
            LispError::CalledWithArguments { generic, arguments } => {
                write!(
                    f,
                    "{NO_METHOD} {generic} when called with arguments {arguments}"
                )
            }
            LispError::CalledWithClass { generic, class } => {
                write!(f, "{NO_METHOD} {generic} when called with a {class}")
            }
            LispError::NilNotOfType { expected } => {
                write!(f, "The value NIL is not of type {expected}")
            }
            LispError::DivisionByZero => f.write_str("arithmetic error DIVISION-BY-ZERO signalled"),
            LispError::AssertionFailed { assertion } => {
                write!(f, "The assertion {assertion} failed.")
            }
            LispError::NoConversion { ingredient } => write!(
                f,
                "The ingredient {ingredient} has no entry in the conversion table!"
            ),
            LispError::NoConversionForUnit { ingredient, unit } => write!(
                f,
                "The ingredient {ingredient} has no entry in the conversion table for unit {unit}!"
            ),
            LispError::NoAmount { ingredient } => write!(f, "{ingredient} has no amount"),
            LispError::NonLocationPlace => {
                f.write_str("The function of a non-location place is undefined")
            }
        }
    }
}

impl From<LispError> for SimError {
    fn from(e: LispError) -> SimError {
        SimError::new(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::LispError;

    #[test]
    fn texts_are_the_references() {
        assert_eq!(
            LispError::nil("CONTENTS").to_string(),
            "There is no applicable method for the generic function CONTENTS when called with NIL"
        );
        assert_eq!(
            LispError::nil_argument("(SETF USED)").to_string(),
            "There is no applicable method for the generic function (SETF USED) when called with arguments (NIL)"
        );
        assert_eq!(
            LispError::NilNotOfType { expected: "REAL" }.to_string(),
            "The value NIL is not of type REAL"
        );
        assert_eq!(
            LispError::CalledWithClass {
                generic: "USED".into(),
                class: "BUTTER".into()
            }
            .to_string(),
            "There is no applicable method for the generic function USED when called with a BUTTER"
        );
    }
}
