//! The syntax tree of a `.solution` file: what the parser read, with source spans.
//!
//! The tree is deliberately close to the text: a file is a list of recipes, a recipe a list of
//! predicates, a predicate a name and arguments. Meaning (which primitive, which roles) is added
//! later by validation against the primitive catalogue.

use crate::base::number::Number;
use std::fmt;

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// One argument of a predicate, as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// `?name`; stored lower-cased without the `?` (symbols are case-insensitive).
    Var(String),
    /// A bare symbol naming an ontology class (`butter`, `g`, `medium-bowl`), lower-cased.
    Sym(String),
    /// A number: exact integer or ratio, or a float.
    Num(Number),
    /// A parenthesised list `( ... )` (accepted by the reference, unusable by primitives).
    List(Vec<Arg>),
    /// A string literal `"..."` (always rejected by validation, kept for the message).
    Str(String),
}

impl Arg {
    pub fn as_var(&self) -> Option<&str> {
        match self {
            Arg::Var(v) => Some(v),
            _ => None,
        }
    }
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Var(v) => write!(f, "?{v}"),
            Arg::Sym(s) => f.write_str(s),
            Arg::Num(n) => write!(f, "{n}"),
            Arg::Str(s) => write!(f, "{s:?}"),
            Arg::List(items) => {
                f.write_str("(")?;
                for (i, a) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// One line `(name arg ...)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Predicate {
    /// Lower-cased primitive name.
    pub name: String,
    pub args: Vec<Arg>,
    /// The whole form, from `(` to `)`.
    pub span: Span,
    pub name_span: Span,
    pub arg_spans: Vec<Span>,
}

impl fmt::Display for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}", self.name)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        f.write_str(")")
    }
}

/// A recipe solution: the `#recipe-id` header and the predicates that follow it.
#[derive(Clone, Debug, PartialEq)]
pub struct Recipe {
    /// Lower-cased recipe id (first token after `#`).
    pub id: String,
    pub id_span: Span,
    pub predicates: Vec<Predicate>,
}

impl Recipe {
    /// The primitive of action `p` (its index), where there is one: how a refusal names the
    /// action the work stopped at.
    pub fn action_name(&self, p: usize) -> Option<String> {
        self.predicates.get(p).map(|a| a.name.clone())
    }
}

impl fmt::Display for Recipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "#{}", self.id)?;
        for p in &self.predicates {
            writeln!(f, "{p}")?;
        }
        Ok(())
    }
}

/// A parsed `.solution` file, recipes in file order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SolutionFile {
    pub recipes: Vec<Recipe>,
}

impl fmt::Display for SolutionFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.recipes {
            write!(f, "{r}")?;
        }
        Ok(())
    }
}
