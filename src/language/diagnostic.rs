//! Located problems found in a `.solution` file, with stable codes and rustc-style rendering.

use crate::language::ast::Span;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The reference refuses the whole file.
    Error,
    /// The reference accepts the file, but the recipe will probably not execute as meant.
    Warning,
}

/// What went wrong. Each kind has a stable code so scripts and tests can match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DiagnosticKind {
    /// A line that is neither blank, a comment, a `#id` header nor a `(` predicate.
    InvalidLine,
    /// A form or string that is not closed on its line.
    UnterminatedForm,
    /// A predicate line before the first `#id` header.
    PredicateBeforeHeader,
    /// `#` with no id after it.
    MissingRecipeId,
    /// A header whose first token is not a symbol (a number, a list, a string).
    InvalidRecipeId,
    /// Reader syntax the reference would fail on or that cannot name anything (`.`, `1/0`,
    /// `#x`, escapes, package prefixes, backquote, a stray `)`), or a number out of range.
    InvalidToken,
    /// Lists nested deeper than the parser accepts.
    NestingTooDeep,
    /// More predicate (or unreadable) lines than a file may hold; the rest is not read.
    TooManyLines,
    /// `()` or a predicate whose head is not a symbol.
    InvalidPredicate,
    /// Not exactly one `get-kitchen` in a recipe.
    GetKitchenCount,
    /// The same argument twice in one predicate (compared like Lisp `eql`).
    DuplicateArgument,
    UnknownPrimitive,
    WrongArity,
    /// A string argument (never accepted).
    StringArgument,
    /// A symbol that names no ontology class.
    UnknownClass,
    /// A class that cannot be instantiated as a concept (`oven`, `kitchen-state`, ...).
    NotConceptualizable,
    /// A constant whose class is not a subtype of the argument's declared type.
    TypeMismatch,
    /// A recipe id the benchmark does not support.
    UnknownRecipe,
    DuplicateRecipe,
    /// A primary output that nothing uses.
    UnusedOutput,
    /// A variable bound by two actions.
    MultipleProducers,
    DependencyCycle,
    /// A kitchen-state input that no action produces.
    BrokenKitchenStateChain,
    /// An input that nothing produces and that has no default.
    UnboundInput,
    /// A double-float literal (`1d0`), read as a single float here.
    DoubleFloat,
    /// Text after the predicate's form on its line (the reference ignores it).
    TrailingText,
    /// A quantity beyond the bounds of any kitchen (see `validate::bounds`): the reference
    /// would run out of memory or time on it.
    QuantityOutOfBounds,
}

impl DiagnosticKind {
    pub const ALL: [DiagnosticKind; 27] = [
        DiagnosticKind::InvalidLine,
        DiagnosticKind::UnterminatedForm,
        DiagnosticKind::PredicateBeforeHeader,
        DiagnosticKind::MissingRecipeId,
        DiagnosticKind::InvalidRecipeId,
        DiagnosticKind::InvalidToken,
        DiagnosticKind::NestingTooDeep,
        DiagnosticKind::TooManyLines,
        DiagnosticKind::InvalidPredicate,
        DiagnosticKind::GetKitchenCount,
        DiagnosticKind::DuplicateArgument,
        DiagnosticKind::UnknownPrimitive,
        DiagnosticKind::WrongArity,
        DiagnosticKind::StringArgument,
        DiagnosticKind::UnknownClass,
        DiagnosticKind::NotConceptualizable,
        DiagnosticKind::TypeMismatch,
        DiagnosticKind::QuantityOutOfBounds,
        DiagnosticKind::UnknownRecipe,
        DiagnosticKind::DuplicateRecipe,
        DiagnosticKind::UnusedOutput,
        DiagnosticKind::MultipleProducers,
        DiagnosticKind::DependencyCycle,
        DiagnosticKind::BrokenKitchenStateChain,
        DiagnosticKind::UnboundInput,
        DiagnosticKind::DoubleFloat,
        DiagnosticKind::TrailingText,
    ];

    /// The stable code: `E00xx` syntax, `E01xx` recipe checks, `E02xx` file checks, `Wxxxx`.
    pub fn code(self) -> &'static str {
        use DiagnosticKind::*;
        match self {
            InvalidLine => "E0001",
            UnterminatedForm => "E0002",
            PredicateBeforeHeader => "E0003",
            MissingRecipeId => "E0004",
            InvalidRecipeId => "E0005",
            InvalidToken => "E0006",
            NestingTooDeep => "E0007",
            InvalidPredicate => "E0008",
            TooManyLines => "E0009",
            GetKitchenCount => "E0101",
            DuplicateArgument => "E0102",
            UnknownPrimitive => "E0103",
            WrongArity => "E0104",
            StringArgument => "E0105",
            UnknownClass => "E0106",
            NotConceptualizable => "E0107",
            TypeMismatch => "E0108",
            QuantityOutOfBounds => "E0109",
            UnknownRecipe => "E0201",
            DuplicateRecipe => "E0202",
            UnusedOutput => "W0001",
            MultipleProducers => "W0002",
            DependencyCycle => "W0003",
            BrokenKitchenStateChain => "W0004",
            UnboundInput => "W0005",
            DoubleFloat => "W0006",
            TrailingText => "W0007",
        }
    }

    pub fn name(self) -> &'static str {
        use DiagnosticKind::*;
        match self {
            InvalidLine => "invalid-line",
            UnterminatedForm => "unterminated-form",
            PredicateBeforeHeader => "predicate-before-header",
            MissingRecipeId => "missing-recipe-id",
            InvalidRecipeId => "invalid-recipe-id",
            InvalidToken => "invalid-token",
            NestingTooDeep => "nesting-too-deep",
            InvalidPredicate => "invalid-predicate",
            TooManyLines => "too-many-lines",
            GetKitchenCount => "get-kitchen-count",
            DuplicateArgument => "duplicate-argument",
            UnknownPrimitive => "unknown-primitive",
            WrongArity => "wrong-arity",
            StringArgument => "string-argument",
            UnknownClass => "unknown-class",
            NotConceptualizable => "not-conceptualizable",
            TypeMismatch => "type-mismatch",
            QuantityOutOfBounds => "quantity-out-of-bounds",
            UnknownRecipe => "unknown-recipe",
            DuplicateRecipe => "duplicate-recipe",
            UnusedOutput => "unused-output",
            MultipleProducers => "multiple-producers",
            DependencyCycle => "dependency-cycle",
            BrokenKitchenStateChain => "broken-kitchen-state-chain",
            UnboundInput => "unbound-input",
            DoubleFloat => "double-float",
            TrailingText => "trailing-text",
        }
    }

    pub fn severity(self) -> Severity {
        if self.code().starts_with('E') {
            Severity::Error
        } else {
            Severity::Warning
        }
    }
}

impl fmt::Display for DiagnosticKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.code(), self.name())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub kind: DiagnosticKind,
    pub span: Span,
    pub message: String,
    pub hint: Option<String>,
}

impl Diagnostic {
    /// A diagnostic whose severity follows from its kind.
    pub fn new(kind: DiagnosticKind, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: kind.severity(),
            kind,
            span,
            message: message.into(),
            hint: None,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Render like rustc: `error[E0104]: ...`, `--> file:line:col`, the line, a caret, `help:`.
    pub fn render(&self, file_name: &str, text: &str) -> String {
        render_all([self], file_name, text)
    }

    fn emit(&self, file: &SimpleFile<&str, &str>, text: &str) -> String {
        let range = clamp(self.span, text);
        let base = match self.severity {
            Severity::Error => cs::Diagnostic::error(),
            Severity::Warning => cs::Diagnostic::warning(),
        };
        let mut d = base
            .with_code(self.kind.code())
            .with_message(&self.message)
            .with_labels(vec![
                cs::Label::primary((), range).with_message(self.kind.name()),
            ]);
        if let Some(h) = &self.hint {
            d = d.with_notes(vec![format!("help: {h}")]);
        }
        let config = term::Config::default();
        term::emit_into_string(&config, file, &d).unwrap_or_else(|_| {
            let (line, col) = line_col(text, self.span.start);
            format!("{}:{line}:{col}: {}\n", file.name(), self.message)
        })
    }
}

/// The most diagnostics of one text rendered; the rest are counted. Each shows its line, so a
/// long line with thousands of problems would otherwise print gigabytes.
pub const MAX_RENDERED: usize = 100;

/// Render diagnostics of one text, one after the other: the first [`MAX_RENDERED`], then how
/// many more there are. The text's line index is built once: building it per diagnostic made
/// a file with many diagnostics quadratic.
pub fn render_all<'d>(
    diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
    file_name: &str,
    text: &str,
) -> String {
    let file = SimpleFile::new(file_name, text);
    let mut diagnostics = diagnostics.into_iter();
    let mut rendered: String = diagnostics
        .by_ref()
        .take(MAX_RENDERED)
        .map(|d| terminal_safe(&d.emit(&file, text)).into_owned())
        .collect();
    let more = diagnostics.count();
    if more > 0 {
        rendered.push_str(&format!(
            "{file_name}: and {more} more diagnostic(s), not shown\n"
        ));
    }
    rendered
}

/// Text as a terminal may show it: every control character but newline and tab becomes `?`
/// (`??` for the two-byte C1 controls), so nothing echoed from a file or a server can move the
/// cursor, retitle the window or change colours, and byte offsets into the text stay valid.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| {
            if is_unsafe(c) {
                "?".repeat(c.len_utf8())
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn is_unsafe(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// Keep a span inside the text and on character boundaries, so rendering never fails.
fn clamp(span: Span, text: &str) -> std::ops::Range<usize> {
    let mut start = span.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = span.end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// 1-based line and 1-based character column of a byte offset (lines end at LF only).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    LineIndex::new(text).line_col(offset)
}

/// The starts of a text's lines, to locate many offsets without rescanning the text for each
/// (a network of 20,000 actions, or 80,000 diagnostics on one line).
pub struct LineIndex<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    pub fn new(text: &'t str) -> LineIndex<'t> {
        let starts = std::iter::once(0)
            .chain(
                text.bytes()
                    .enumerate()
                    .filter(|(_, b)| *b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        LineIndex { text, starts }
    }

    /// 1-based line and character column of a byte offset (clamped into the text).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = clamp(Span::new(offset, offset), self.text).start;
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        (line, self.text[start..offset].chars().count() + 1)
    }

    /// [`LineIndex::line_col`] of many offsets, in their order: columns are counted on from
    /// the previous offset of the same line, so the cost is the text's length however many
    /// offsets share a line.
    pub fn line_cols(&self, offsets: &[usize]) -> Vec<(usize, usize)> {
        let mut order: Vec<usize> = (0..offsets.len()).collect();
        order.sort_by_key(|&i| offsets[i]);
        let mut out = vec![(0, 0); offsets.len()];
        // The last offset located, and its line and column.
        let mut last: Option<(usize, usize, usize)> = None;
        for i in order {
            let offset = clamp(Span::new(offsets[i], offsets[i]), self.text).start;
            let line = self.starts.partition_point(|&s| s <= offset);
            let col = match last {
                Some((at, l, c)) if l == line => c + self.text[at..offset].chars().count(),
                _ => self.text[self.starts[line - 1]..offset].chars().count() + 1,
            };
            out[i] = (line, col);
            last = Some((offset, line, col));
        }
        out
    }
}
