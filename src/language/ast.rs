//! The syntax tree of a `.solution` file: what the parser read, with source spans.
//!
//! The tree is deliberately close to the text: a file is a list of recipes, a recipe a list of
//! predicates, a predicate a name and arguments. Meaning (which primitive, which roles) is added
//! later by validation against the primitive catalogue.

use crate::base::number::Number;
use std::fmt;
use std::sync::Arc;

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

/// One argument of a predicate, as written. A long network's tree is held for its whole
/// evaluation, so an argument is 24 bytes and a name is held once per file (the parser
/// shares each variable's and symbol's text among its uses: a chain names every kitchen state
/// twice and its units and ingredients at every action).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// `?name`; stored lower-cased without the `?` (symbols are case-insensitive).
    Var(Arc<str>),
    /// A bare symbol naming an ontology class (`butter`, `g`, `medium-bowl`), lower-cased.
    Sym(Arc<str>),
    /// A number: exact integer or ratio, or a float.
    Num(Number),
    /// A parenthesised list `( ... )` (accepted by the reference, unusable by primitives).
    List(Box<[Arg]>),
    /// A string literal `"..."` (always rejected by validation, kept for the message).
    Str(Box<str>),
}

impl Arg {
    pub fn as_var(&self) -> Option<&str> {
        match self {
            Arg::Var(v) => Some(v),
            _ => None,
        }
    }

    /// Whether this is the symbol `name` (a class: an ingredient, a unit).
    pub fn is_sym(&self, name: &str) -> bool {
        matches!(self, Arg::Sym(s) if **s == *name)
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
    pub arg_spans: ArgSpans,
}

/// The spans of a predicate's arguments, 8 bytes each rather than 16: a long network's tree
/// is held for its whole evaluation. Texts are read up to `MAX_INPUT_BYTES` (64 MB), far
/// inside the `u32` offsets (a place past 4 GB would read as its last byte).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ArgSpans(Box<[(u32, u32)]>);

impl ArgSpans {
    pub fn get(&self, i: usize) -> Option<Span> {
        let &(start, end) = self.0.get(i)?;
        Some(Span::new(start as usize, end as usize))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn last(&self) -> Option<Span> {
        self.get(self.len().checked_sub(1)?)
    }

    pub fn iter(&self) -> impl Iterator<Item = Span> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

impl FromIterator<Span> for ArgSpans {
    fn from_iter<I: IntoIterator<Item = Span>>(spans: I) -> ArgSpans {
        let offset = |at: usize| u32::try_from(at).unwrap_or(u32::MAX);
        ArgSpans(
            (spans.into_iter())
                .map(|s| (offset(s.start), offset(s.end)))
                .collect(),
        )
    }
}

impl From<Vec<Span>> for ArgSpans {
    fn from(spans: Vec<Span>) -> ArgSpans {
        spans.into_iter().collect()
    }
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
