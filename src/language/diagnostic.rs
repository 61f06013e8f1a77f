//! Located problems found in a `.solution` file, with stable codes and rustc-style rendering.

use crate::language::ast::Span;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{self, Files};
use codespan_reporting::term;
use std::fmt;
use std::ops::Range;

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
    /// The text starts with a byte-order mark, which the reference reads as a character.
    ByteOrderMark,
    /// Lines ended by a carriage return alone, which the reference's `read-line` does not end.
    CarriageReturnLineEnds,
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
    /// An action that makes a failed object when the network runs in the kitchen checked
    /// against (`check` with a model): a class the kitchen does not hold, and why.
    FailsInKitchen,
}

impl DiagnosticKind {
    pub const ALL: [DiagnosticKind; 30] = [
        DiagnosticKind::InvalidLine,
        DiagnosticKind::UnterminatedForm,
        DiagnosticKind::PredicateBeforeHeader,
        DiagnosticKind::MissingRecipeId,
        DiagnosticKind::InvalidRecipeId,
        DiagnosticKind::InvalidToken,
        DiagnosticKind::NestingTooDeep,
        DiagnosticKind::TooManyLines,
        DiagnosticKind::ByteOrderMark,
        DiagnosticKind::CarriageReturnLineEnds,
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
        DiagnosticKind::FailsInKitchen,
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
            ByteOrderMark => "E0010",
            CarriageReturnLineEnds => "E0011",
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
            FailsInKitchen => "W0008",
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
            ByteOrderMark => "byte-order-mark",
            CarriageReturnLineEnds => "carriage-return-line-ends",
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
            FailsInKitchen => "fails-in-kitchen",
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
    /// The did-you-mean names of the hint, best first, as data: what a program (an agent
    /// repairing its line) takes in place of the unknown name.
    pub suggestions: Vec<String>,
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
            suggestions: Vec::new(),
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The hint ``did you mean `a`, `b`?`` and its names as [`Diagnostic::suggestions`]; no hint
    /// when there are none.
    pub fn suggesting(mut self, names: &[&str]) -> Self {
        if names.is_empty() {
            return self;
        }
        let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        self.hint = Some(format!("did you mean {}?", quoted.join(", ")));
        self.suggestions = names.iter().map(|n| n.to_string()).collect();
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Render like rustc: `error[E0104]: ...`, `--> file:line:col`, the line, a caret, `help:`.
    pub fn render(&self, file_name: &str, text: &str) -> String {
        render_all([self], file_name, text)
    }

    /// Render against the one line the diagnostic points into, shown as [`Excerpt`] shows it.
    fn emit(&self, file_name: &str, text: &str, (line, column): (usize, usize)) -> String {
        let excerpt = Excerpt::new(file_name, text, clamp(self.span, text), (line, column));
        let base = match self.severity {
            Severity::Error => cs::Diagnostic::error(),
            Severity::Warning => cs::Diagnostic::warning(),
        };
        let mut d = base
            .with_code(self.kind.code())
            .with_message(&self.message)
            .with_labels(vec![
                cs::Label::primary((), excerpt.label.clone()).with_message(self.kind.name()),
            ]);
        if let Some(h) = &self.hint {
            d = d.with_notes(vec![format!("help: {h}")]);
        }
        let config = term::Config::default();
        term::emit_into_string(&config, &excerpt, &d)
            .unwrap_or_else(|_| format!("{file_name}:{line}:{column}: {}\n", self.message))
    }
}

/// Lines of more characters than this are shown as a window around the problem, as rustc trims
/// long lines: every diagnostic on a 12 MB line would otherwise print the 12 MB again.
pub const LONG_LINE: usize = 160;

/// In a trimmed line: the characters shown before the problem, and in all.
const BEFORE: usize = 40;
const SHOWN: usize = 120;

/// Marks where a trimmed line was cut.
const CUT: &str = "...";

/// The one line a diagnostic points into, as it is shown: whole, or a window of [`SHOWN`]
/// characters around the problem when longer than [`LONG_LINE`]; every character a terminal
/// would act on or hide written as [`push_shown`] writes it. Its line and column are those of
/// the problem in the whole text, so the `-->` location does not change with the trimming.
struct Excerpt<'a> {
    name: &'a str,
    line: usize,
    column: usize,
    shown: String,
    /// The problem's range in `shown` (cut at the window's end).
    label: Range<usize>,
}

impl<'a> Excerpt<'a> {
    fn new(
        name: &'a str,
        text: &str,
        range: Range<usize>,
        (line, column): (usize, usize),
    ) -> Excerpt<'a> {
        let line_start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[range.start..]
            .find('\n')
            .map_or(text.len(), |i| range.start + i);
        let whole = text[line_start..line_end].chars().nth(LONG_LINE).is_none();
        let (from, to) = if whole {
            (line_start, line_end)
        } else {
            let before = &text[line_start..range.start];
            let from = before
                .char_indices()
                .rev()
                .nth(BEFORE - 1)
                .map_or(line_start, |(i, _)| line_start + i);
            let to = text[from..line_end]
                .char_indices()
                .nth(SHOWN)
                .map_or(line_end, |(i, _)| from + i);
            (from, to)
        };
        let end = range.end.min(to);
        let mut shown = String::new();
        if from > line_start {
            shown.push_str(CUT);
        }
        let (mut label_start, mut label_end) = (None, None);
        for (i, c) in text[from..to].char_indices() {
            if from + i == range.start {
                label_start = Some(shown.len());
            }
            if from + i == end {
                label_end = Some(shown.len());
            }
            push_shown(c, &mut shown);
        }
        let label_start = label_start.unwrap_or(shown.len());
        let label_end = label_end.unwrap_or(shown.len()).max(label_start);
        if to < line_end {
            shown.push_str(CUT);
        }
        Excerpt {
            name,
            line,
            column,
            shown,
            label: label_start..label_end,
        }
    }
}

impl<'a> Files<'a> for Excerpt<'_> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(&self.shown)
    }

    fn line_index(&'a self, (): (), _: usize) -> Result<usize, files::Error> {
        Ok(0)
    }

    fn line_number(&'a self, (): (), _: usize) -> Result<usize, files::Error> {
        Ok(self.line)
    }

    fn column_number(&'a self, (): (), _: usize, _: usize) -> Result<usize, files::Error> {
        Ok(self.column)
    }

    fn line_range(&'a self, (): (), _: usize) -> Result<Range<usize>, files::Error> {
        Ok(0..self.shown.len())
    }
}

/// The most diagnostics of one text kept ([`Diagnostics`]) and rendered; the rest are counted.
/// Each shows its line, so a long line with thousands of problems would otherwise print
/// gigabytes; and each costs a few hundred bytes, so a file of a million problems would
/// otherwise cost gigabytes before anything is shown.
pub const MAX_RENDERED: usize = 100;

/// Render diagnostics of one text, one after the other: the first [`MAX_RENDERED`], then how
/// many more there are. They are located in one pass over the text: locating each from the
/// start made a file with many diagnostics quadratic.
pub fn render_all<'d>(
    diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
    file_name: &str,
    text: &str,
) -> String {
    render_counted(diagnostics.into_iter(), 0, file_name, text)
}

/// [`render_all`], with `unkept` more diagnostics found but not kept.
fn render_counted<'d>(
    mut diagnostics: impl Iterator<Item = &'d Diagnostic>,
    unkept: usize,
    file_name: &str,
    text: &str,
) -> String {
    let shown: Vec<&Diagnostic> = diagnostics.by_ref().take(MAX_RENDERED).collect();
    let located = line_cols(text, shown.iter().map(|d| d.span.start));
    let mut rendered: String = shown
        .iter()
        .zip(located)
        .map(|(d, at)| terminal_safe(&d.emit(file_name, text, at)).into_owned())
        .collect();
    let more = diagnostics.count() + unkept;
    if more > 0 {
        rendered.push_str(&format!(
            "{}: and {more} more diagnostic(s), not shown\n",
            terminal_safe(file_name)
        ));
    }
    rendered
}

/// In what order a [`Diagnostics`] keeps the first [`MAX_RENDERED`] it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// As they are found: the parser's, line by line, then the recipes' checks (the order of
    /// an evaluation's refusal).
    Found,
    /// By place in the text, then severity, then kind, ties as found (the order of `check`).
    Text,
}

/// The diagnostics of one text, bounded while they are collected: the first [`MAX_RENDERED`]
/// (as found, or in text order) are kept, every other one is only counted. A file's problems
/// then cost memory for those alone, however many it has (a line of a thousand unknown
/// names is a thousand errors); what is shown says how many more there were.
#[derive(Clone, Debug)]
pub struct Diagnostics(Box<Collected>);

/// What a [`Diagnostics`] holds (behind a box: a refusal that carries it stays small).
#[derive(Clone, Debug)]
struct Collected {
    order: Order,
    /// Warnings are counted, not kept (what refuses a file is its errors).
    errors_only: bool,
    /// How many are kept: [`MAX_RENDERED`], what is shown of a text.
    keep: usize,
    /// Those kept, in their order.
    kept: Vec<Diagnostic>,
    /// In text order, the place, severity, kind and arrival of each kept one.
    ranks: Vec<(usize, Severity, DiagnosticKind, usize)>,
    errors: usize,
    warnings: usize,
    /// The first error found, kept even when the first ones kept are warnings: whether and
    /// why a text is refused.
    first_error: Option<Diagnostic>,
}

impl Default for Diagnostics {
    fn default() -> Self {
        Diagnostics::new()
    }
}

impl Diagnostics {
    /// Keeps the first diagnostics found, errors and warnings.
    pub fn new() -> Diagnostics {
        Diagnostics(Box::new(Collected {
            order: Order::Found,
            errors_only: false,
            keep: MAX_RENDERED,
            kept: Vec::new(),
            ranks: Vec::new(),
            errors: 0,
            warnings: 0,
            first_error: None,
        }))
    }

    /// Keeps all: for a text whose length bounds its diagnostics already (one line of a
    /// session, at most a few kilobytes).
    pub fn unbounded() -> Diagnostics {
        let mut all = Diagnostics::new();
        all.0.keep = usize::MAX;
        all
    }

    /// Keeps errors only; warnings are counted.
    pub fn errors_only(mut self) -> Diagnostics {
        self.0.errors_only = true;
        self
    }

    /// Keeps the first in text order (place, severity, kind), whatever order they are found in.
    pub fn in_text_order(mut self) -> Diagnostics {
        self.0.order = Order::Text;
        self
    }

    pub fn push(&mut self, d: Diagnostic) {
        let arrival = self.0.errors + self.0.warnings;
        if d.is_error() {
            self.0.errors += 1;
            if self.0.first_error.is_none() {
                self.0.first_error = Some(d.clone());
            }
        } else {
            self.0.warnings += 1;
            if self.0.errors_only {
                return;
            }
        }
        match self.0.order {
            Order::Found if self.0.kept.len() < self.0.keep => self.0.kept.push(d),
            Order::Found => {}
            Order::Text => {
                let rank = (d.span.start, d.severity, d.kind, arrival);
                let at = self.0.ranks.partition_point(|r| *r < rank);
                if at < self.0.keep {
                    self.0.ranks.insert(at, rank);
                    self.0.kept.insert(at, d);
                    self.0.ranks.truncate(self.0.keep);
                    self.0.kept.truncate(self.0.keep);
                }
            }
        }
    }

    /// How many errors were found, kept or not.
    pub fn errors(&self) -> usize {
        self.0.errors
    }

    /// How many warnings were found, kept or not.
    pub fn warnings(&self) -> usize {
        self.0.warnings
    }

    pub fn has_errors(&self) -> bool {
        self.0.errors > 0
    }

    /// The first error found.
    pub fn first_error(&self) -> Option<&Diagnostic> {
        self.0.first_error.as_ref()
    }

    /// How many of those it keeps (errors, or errors and warnings) were found and not kept.
    pub fn unkept(&self) -> usize {
        let warnings = if self.0.errors_only {
            0
        } else {
            self.0.warnings
        };
        self.0.errors + warnings - self.0.kept.len()
    }

    /// Those kept.
    pub fn into_kept(self) -> Vec<Diagnostic> {
        self.0.kept
    }

    /// Those kept, rendered as [`render_all`] renders them, then how many more were found.
    pub fn render(&self, file_name: &str, text: &str) -> String {
        render_counted(self.0.kept.iter(), self.unkept(), file_name, text)
    }
}

impl std::ops::Deref for Diagnostics {
    type Target = [Diagnostic];

    fn deref(&self) -> &[Diagnostic] {
        &self.0.kept
    }
}

/// Those kept, in their order.
impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.kept.into_iter()
    }
}

impl Extend<Diagnostic> for Diagnostics {
    fn extend<I: IntoIterator<Item = Diagnostic>>(&mut self, found: I) {
        found.into_iter().for_each(|d| self.push(d));
    }
}

/// The 1-based line and character column of each byte offset (as [`line_col`] gives them),
/// counted in one pass over the text, however many offsets fall on one line.
pub fn line_cols(text: &str, offsets: impl Iterator<Item = usize>) -> Vec<(usize, usize)> {
    let offsets: Vec<usize> = offsets
        .map(|o| clamp(Span::new(o, o), text).start)
        .collect();
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_by_key(|&i| offsets[i]);
    let mut located = vec![(1, 1); offsets.len()];
    let (mut counted, mut line, mut column) = (0, 1, 1);
    for i in order {
        for &b in &text.as_bytes()[counted..offsets[i]] {
            if b == b'\n' {
                (line, column) = (line + 1, 1);
            } else if !is_continuation(b) {
                column += 1;
            }
        }
        counted = offsets[i];
        located[i] = (line, column);
    }
    located
}

/// A byte inside a UTF-8 character (not its first).
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// Text as a terminal may show it: every control character but newline and tab becomes `?`
/// (`??` for the two-byte C1 controls), so nothing echoed from a file or a server can move the
/// cursor, retitle the window or change colours; and every character that hides itself or
/// reorders the text around it (zero-width characters, bidirectional controls, the byte-order
/// mark) is written as its code, `\u{202E}`, so a name that looks like another is told apart.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| is_unsafe(c) || is_invisible(c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len());
    text.chars().for_each(|c| push_shown(c, &mut shown));
    std::borrow::Cow::Owned(shown)
}

/// One character as [`terminal_safe`] shows it.
fn push_shown(c: char, out: &mut String) {
    if is_unsafe(c) {
        out.extend(std::iter::repeat_n('?', c.len_utf8()));
    } else if is_invisible(c) {
        out.push_str(&format!("\\u{{{:04X}}}", u32::from(c)));
    } else {
        out.push(c);
    }
}

fn is_unsafe(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// Characters shown as nothing, or that change the order or the joining of the characters
/// around them: the soft hyphen, the Arabic letter mark, the Mongolian vowel separator, the
/// zero-width space, joiners and direction marks, line and paragraph separators, the
/// bidirectional embeddings, overrides and isolates, the word joiner and invisible operators,
/// the byte-order mark and the tag characters.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{AD}'
            | '\u{61C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{E0000}'..='\u{E007F}'
    )
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

/// The starts of a text's lines, to locate offsets one at a time without rescanning the text
/// for each (the actions of a network of 20,000 lines); [`line_cols`] locates a batch.
pub struct LineIndex<'t> {
    text: &'t str,
    starts: std::borrow::Cow<'t, [usize]>,
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
            .collect::<Vec<usize>>();
        LineIndex {
            text,
            starts: starts.into(),
        }
    }

    /// The index of a text whose line starts are known already (`starts`: 0, then the byte
    /// after each line feed), as a text written a line at a time keeps them.
    pub fn with_starts(text: &'t str, starts: &'t [usize]) -> LineIndex<'t> {
        LineIndex {
            text,
            starts: starts.into(),
        }
    }

    /// 1-based line and character column of a byte offset (clamped into the text).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = clamp(Span::new(offset, offset), self.text).start;
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        (line, self.text[start..offset].chars().count() + 1)
    }
}
