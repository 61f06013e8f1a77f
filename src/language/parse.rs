//! `.solution` text → [`SolutionFile`], reading it exactly the way the reference does
//! (`shared/spec/solution-format.md` §1–§3): line by line, each line classified by its first
//! character, and a predicate line read as one Common Lisp form.
//!
//! Parsing never fails: every readable recipe and predicate is kept and every problem becomes a
//! [`Diagnostic`], so one run reports all problems of a file. Reading is iterative (an explicit
//! stack, nesting bounded by [`MAX_DEPTH`]) and linear in the input size.

use crate::base::number::Number;
use crate::language::ast::{Arg, Predicate, Recipe, SolutionFile, Span};
use crate::language::diagnostic::{Diagnostic, DiagnosticKind, Diagnostics, LONG_LINE};
use nom::branch::alt;
use nom::bytes::complete::{take_while, take_while1};
use nom::character::complete::{char, digit0, digit1, one_of};
use nom::combinator::{eof, opt, recognize};
use nom::{IResult, Parser};
use std::sync::Arc;

/// Deepest list nesting accepted inside one line (the benchmark's networks use 1).
pub const MAX_DEPTH: usize = 64;

/// The most lines holding something (a header, a predicate, anything but a blank line or a
/// comment) read from one file: ten recipes at the simulator's action limit (100,000). Each
/// costs a few hundred bytes of tree and diagnostics, so this bounds a file's memory to well
/// under a gigabyte however short its lines.
pub const MAX_LINES: usize = 1_000_000;

/// What was read, and every problem met while reading (the first kept, the rest counted).
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub file: SolutionFile,
    pub diagnostics: Diagnostics,
}

/// The text of every variable and symbol a parse has read, so that each use of a name holds
/// the same text.
#[derive(Default)]
struct Names(std::collections::HashSet<Arc<str>>);

impl Names {
    /// Make `arg`'s names (and its items') those read before where they were.
    fn share(&mut self, arg: &mut Arg) {
        match arg {
            Arg::Var(name) | Arg::Sym(name) => match self.0.get(&**name) {
                Some(held) => *name = Arc::clone(held),
                None => {
                    self.0.insert(Arc::clone(name));
                }
            },
            Arg::List(items) => items.iter_mut().for_each(|item| self.share(item)),
            Arg::Num(_) | Arg::Str(_) => {}
        }
    }
}

impl Parsed {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.has_errors()
    }
}

/// Parse a whole `.solution` text.
pub fn parse(text: &str) -> Parsed {
    parse_into(text, Diagnostics::new())
}

/// Parse a whole `.solution` text, its problems collected into `diagnostics` (which keeps
/// those its caller shows).
pub fn parse_into(text: &str, diagnostics: Diagnostics) -> Parsed {
    let mut out = Parsed {
        file: SolutionFile::default(),
        diagnostics,
    };
    if let Some(cr) = carriage_return_line_end(text) {
        out.diagnostics.push(
            Diagnostic::new(
                DiagnosticKind::CarriageReturnLineEnds,
                Span::new(cr, cr + 1),
                "the lines end with a carriage return (CR) alone: the reference reads the file as one line, a recipe id followed by text it ignores, and refuses it",
            )
            .with_hint("end lines with LF (or CR LF): `tr '\\r' '\\n' < old.solution > new.solution`"),
        );
        return out;
    }
    let mut at = 0;
    if text.starts_with(BYTE_ORDER_MARK) {
        out.diagnostics.push(
            Diagnostic::new(
                DiagnosticKind::ByteOrderMark,
                Span::new(0, BYTE_ORDER_MARK.len_utf8()),
                "the file starts with a UTF-8 byte-order mark, which the reference reads as a character of the first line and refuses the file",
            )
            .with_hint("save the file as UTF-8 without a byte-order mark (BOM)"),
        );
        // The rest is read as if the mark were not there: this is the one error it causes.
        at = BYTE_ORDER_MARK.len_utf8();
    }
    let mut read = 0;
    let mut names = Names::default();
    for line in text[at..].split('\n') {
        if read_line(line, at, &mut out, &mut names) {
            read += 1;
            if read > MAX_LINES {
                out.diagnostics.push(Diagnostic::new(
                    DiagnosticKind::TooManyLines,
                    Span::new(at, at + line.len()),
                    format!("more than {MAX_LINES} lines of predicates; the rest of the file is not read"),
                ));
                break;
            }
        }
        at += line.len() + 1;
    }
    for recipe in &mut out.file.recipes {
        recipe.predicates.shrink_to_fit();
    }
    out
}

/// Read one line of a recipe's body, starting at byte `at` of a text whose earlier lines opened
/// the recipe: what [`parse`] reads from that line in the whole text (a line is read alone),
/// so a text given a line at a time, an agent's session, is read once. The line's predicate
/// is the last of the last recipe read.
/// A line's length bounds its diagnostics, so all are kept.
pub fn parse_line(line: &str, at: usize) -> Parsed {
    let mut out = Parsed {
        file: SolutionFile::default(),
        diagnostics: Diagnostics::unbounded(),
    };
    out.file.recipes.push(Recipe {
        id: String::new(),
        id_span: Span::new(at, at),
        predicates: Vec::new(),
    });
    read_line(line, at, &mut out, &mut Names::default());
    out
}

/// Read one line; whether it held anything (not blank, not a comment).
fn read_line(line: &str, at: usize, out: &mut Parsed, names: &mut Names) -> bool {
    // Blank means: no character other than U+0020 (a tab or a CR makes the line non-blank).
    if line.bytes().all(|b| b == b' ') {
        return false;
    }
    match line.as_bytes()[0] {
        b';' => return false,
        b'#' => read_header(line, at, out),
        b'(' => read_predicate(line, at, out, names),
        _ => out.diagnostics.push(invalid_line(line, at)),
    }
    true
}

/// U+FEFF at the start of a text: a byte-order mark. The reference (SBCL's UTF-8 decoder, which
/// keeps it as a character) sees a first line that starts with neither `#` nor `(` and refuses
/// the file, so it is refused here too, with one error rather than one per line.
const BYTE_ORDER_MARK: char = '\u{FEFF}';

/// Where a text whose lines end with CR alone (classic Mac OS) has its first line end: a CR
/// with more than blanks after it in a text with no LF at all. The reference's `read-line`
/// ends lines at LF only, so such a file is one line to it: a header whose rest is ignored, a
/// recipe with no action, refused. A CR inside a file that has LFs is left to the line's
/// reader, as the reference leaves it.
fn carriage_return_line_end(text: &str) -> Option<usize> {
    if text.contains('\n') {
        return None;
    }
    let cr = text.find('\r')?;
    (!text[cr..].trim_start_matches(['\r', ' ']).is_empty()).then_some(cr)
}

/// A line as a message quotes it: its first [`LONG_LINE`] characters, so that a message never
/// repeats a long line whole.
fn quoted(line: &str) -> String {
    match line.char_indices().nth(LONG_LINE) {
        Some((cut, _)) => format!("{:?}...", &line[..cut]),
        None => format!("{line:?}"),
    }
}

fn invalid_line(line: &str, at: usize) -> Diagnostic {
    let trimmed = line.trim_end_matches('\r');
    let shown = if trimmed.trim_start_matches(' ').is_empty() {
        line
    } else {
        trimmed
    };
    let first_non_space = line.find(|c| c != ' ').unwrap_or(0);
    let rest = &line[first_non_space..];
    let (span, hint) = if rest.chars().all(is_whitespace) {
        let width = rest.chars().next().map_or(1, char::len_utf8);
        let s = Span::new(at + first_non_space, at + first_non_space + width);
        (
            s,
            "a blank line may contain only spaces; remove the tab or carriage return".to_string(),
        )
    } else if rest.starts_with(['(', '#', ';']) {
        (
            Span::new(at, at + shown.len()),
            "predicates, headers and comments must start in the first column; remove the indentation"
                .to_string(),
        )
    } else if rest.contains('?') {
        (
            Span::new(at, at + shown.len()),
            "a predicate is written `(name ?arg ...)`; is the opening `(` missing?".to_string(),
        )
    } else {
        (
            Span::new(at, at + shown.len()),
            "start the line with `#` for a recipe id, `(` for a predicate or `;` for a comment"
                .to_string(),
        )
    };
    Diagnostic::new(
        DiagnosticKind::InvalidLine,
        span,
        format!(
            "a line must hold a recipe id (#recipe-id) or a predicate (op ?a ?b), found {}",
            quoted(shown)
        ),
    )
    .with_hint(hint)
}

fn read_header(line: &str, at: usize, out: &mut Parsed) {
    let hash = Span::new(at, at + 1);
    let mut reader = Reader::new(line, at, 1);
    let id = match reader.read_datum() {
        Ok(None) => {
            out.diagnostics.push(
                Diagnostic::new(
                    DiagnosticKind::MissingRecipeId,
                    hash,
                    "`#` without a recipe id",
                )
                .with_hint("write the recipe id right after `#`, e.g. `#afghan-biscuits`"),
            );
            (String::new(), hash)
        }
        Ok(Some(d)) => match d.arg {
            Arg::Sym(s) => (s.to_string(), d.span),
            Arg::Var(v) => (format!("?{v}"), d.span),
            other => {
                let shown = other.to_string();
                out.diagnostics.push(
                    Diagnostic::new(
                        DiagnosticKind::InvalidRecipeId,
                        d.span,
                        format!("the recipe id must be a symbol, found `{shown}`"),
                    )
                    .with_hint("recipe ids are names such as `afghan-biscuits`"),
                );
                (shown, d.span)
            }
        },
        Err(diag) => {
            out.diagnostics.push(diag);
            (String::new(), hash)
        }
    };
    out.file.recipes.push(Recipe {
        id: id.0,
        id_span: id.1,
        predicates: Vec::new(),
    });
}

fn read_predicate(line: &str, at: usize, out: &mut Parsed, names: &mut Names) {
    if out.file.recipes.is_empty() {
        let shown = line.trim_end_matches('\r');
        out.diagnostics.push(
            Diagnostic::new(
                DiagnosticKind::PredicateBeforeHeader,
                Span::new(at, at + shown.len()),
                "a predicate before any recipe id: the file must start with `#recipe-id`",
            )
            .with_hint("add a header line such as `#afghan-biscuits` above the first predicate"),
        );
        return;
    }
    let mut reader = Reader::new(line, at, 0);
    let datum = match reader.read_datum() {
        Ok(Some(d)) => d,
        Ok(None) => return,
        Err(diag) => {
            out.diagnostics.push(diag);
            return;
        }
    };
    out.diagnostics.extend(reader.warnings.drain(..));
    if let Some(trailing) = reader.trailing_text() {
        out.diagnostics.push(
            Diagnostic::new(
                DiagnosticKind::TrailingText,
                trailing,
                "text after the predicate is ignored",
            )
            .with_hint(
                "only the first form of a line is read; remove the extra text or start it with `;`",
            ),
        );
    }
    let Arg::List(items) = datum.arg else {
        return;
    };
    let mut items = items.into_vec();
    let mut spans = datum.item_spans;
    if items.is_empty() {
        out.diagnostics.push(Diagnostic::new(
            DiagnosticKind::InvalidPredicate,
            datum.span,
            "an empty expression `()` is not a predicate",
        ));
        return;
    }
    let name = match items.remove(0) {
        Arg::Sym(s) => s.to_string(),
        other => {
            out.diagnostics.push(
                Diagnostic::new(
                    DiagnosticKind::InvalidPredicate,
                    spans[0],
                    format!("a predicate must start with a primitive name, found `{other}`"),
                )
                .with_hint("write `(primitive-name ?output ...)`"),
            );
            return;
        }
    };
    let name_span = spans.remove(0);
    // Sized to fit: a long network's tree is held for its whole evaluation, and the lists
    // grown item by item have room for twice their items.
    items.shrink_to_fit();
    for item in &mut items {
        names.share(item);
    }
    let recipe = out.file.recipes.last_mut();
    if let Some(r) = recipe {
        r.predicates.push(Predicate {
            name,
            args: items,
            span: datum.span,
            name_span,
            arg_spans: spans.into(),
        });
    }
}

/// A datum read from a line: its value, its span and, for a list, the spans of its items.
struct Datum {
    arg: Arg,
    span: Span,
    item_spans: Vec<Span>,
}

enum Frame {
    List {
        open: usize,
        items: Vec<Arg>,
        spans: Vec<Span>,
    },
    Quote {
        at: usize,
    },
}

/// Reads one Lisp form from a single line (the reference's `read-from-string` on the line).
struct Reader<'a> {
    line: &'a str,
    base: usize,
    pos: usize,
    warnings: Vec<Diagnostic>,
}

fn is_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c' | '\x7f')
}

fn is_terminating(c: char) -> bool {
    is_whitespace(c) || matches!(c, '(' | ')' | '\'' | '"' | ';' | '`' | ',')
}

fn whitespace(i: &str) -> IResult<&str, &str> {
    take_while(is_whitespace).parse(i)
}

fn token(i: &str) -> IResult<&str, &str> {
    take_while1(|c| !is_terminating(c)).parse(i)
}

fn sign(i: &str) -> IResult<&str, char> {
    one_of("+-").parse(i)
}

fn exponent(i: &str) -> IResult<&str, &str> {
    recognize((one_of("esfdlESFDL"), opt(sign), digit1)).parse(i)
}

/// `[sign] digits [.]` — a trailing dot still means a decimal integer.
fn integer_syntax(i: &str) -> IResult<&str, &str> {
    recognize((opt(sign), digit1, opt(char('.')), eof)).parse(i)
}

fn ratio_syntax(i: &str) -> IResult<&str, &str> {
    recognize((opt(sign), digit1, char('/'), digit1, eof)).parse(i)
}

fn float_syntax(i: &str) -> IResult<&str, &str> {
    alt((
        recognize((opt(sign), digit0, char('.'), digit1, opt(exponent), eof)),
        recognize((opt(sign), digit1, opt((char('.'), digit0)), exponent, eof)),
    ))
    .parse(i)
}

impl<'a> Reader<'a> {
    fn new(line: &'a str, base: usize, pos: usize) -> Self {
        Reader {
            line,
            base,
            pos,
            warnings: Vec::new(),
        }
    }

    fn rest(&self) -> &'a str {
        &self.line[self.pos..]
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.base + start, self.base + end)
    }

    fn skip_whitespace(&mut self) {
        if let Ok((rest, _)) = whitespace(self.rest()) {
            self.pos = self.line.len() - rest.len();
        }
    }

    /// Non-blank, non-comment text after the form just read.
    fn trailing_text(&mut self) -> Option<Span> {
        self.skip_whitespace();
        let rest = self.rest();
        (!rest.is_empty() && !rest.starts_with(';')).then(|| {
            self.span(
                self.pos,
                self.pos + rest.trim_end_matches(is_whitespace).len(),
            )
        })
    }

    fn error(&self, kind: DiagnosticKind, start: usize, end: usize, msg: String) -> Diagnostic {
        Diagnostic::new(kind, self.span(start, end), msg)
    }

    /// The next form, `None` if the line holds no more forms.
    fn read_datum(&mut self) -> Result<Option<Datum>, Diagnostic> {
        let mut stack: Vec<Frame> = Vec::new();
        loop {
            self.skip_whitespace();
            let Some(c) = self.rest().chars().next() else {
                return match stack.last() {
                    None => Ok(None),
                    Some(frame) => Err(self.unterminated(frame)),
                };
            };
            let start = self.pos;
            let mut datum = match c {
                '(' | '\'' => {
                    let (frame, what) = if c == '(' {
                        let list = Frame::List {
                            open: start,
                            items: Vec::new(),
                            spans: Vec::new(),
                        };
                        (list, "lists")
                    } else {
                        (Frame::Quote { at: start }, "quotes")
                    };
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.error(
                            DiagnosticKind::NestingTooDeep,
                            start,
                            start + 1,
                            format!("{what} nested deeper than {MAX_DEPTH} levels"),
                        ));
                    }
                    stack.push(frame);
                    self.pos += 1;
                    continue;
                }
                ')' => match stack.pop() {
                    Some(Frame::List { open, items, spans }) => {
                        self.pos += 1;
                        Datum {
                            arg: Arg::List(items.into_boxed_slice()),
                            span: self.span(open, self.pos),
                            item_spans: spans,
                        }
                    }
                    _ => {
                        return Err(self
                            .error(
                                DiagnosticKind::InvalidToken,
                                start,
                                start + 1,
                                "unmatched `)`".into(),
                            )
                            .with_hint("remove the `)` or add the missing `(`"));
                    }
                },
                ';' => {
                    self.pos = self.line.len();
                    continue;
                }
                '"' => self.string()?,
                '`' | ',' => {
                    return Err(self.error(
                        DiagnosticKind::InvalidToken,
                        start,
                        start + 1,
                        format!("backquote syntax `{c}` is not part of the cooking language"),
                    ));
                }
                '#' => {
                    let end = self.pos + self.rest().chars().nth(1).map_or(1, |c| 1 + c.len_utf8());
                    return Err(self.error(
                        DiagnosticKind::InvalidToken,
                        start,
                        end,
                        "`#` reader syntax is not part of the cooking language".into(),
                    ));
                }
                _ => self.atom()?,
            };
            loop {
                match stack.last_mut() {
                    None => return Ok(Some(datum)),
                    Some(Frame::List { items, spans, .. }) => {
                        items.push(datum.arg);
                        spans.push(datum.span);
                        break;
                    }
                    Some(Frame::Quote { at }) => {
                        let at = *at;
                        stack.pop();
                        datum = Datum {
                            arg: Arg::List(Box::new([Arg::Sym("quote".into()), datum.arg])),
                            span: Span::new(self.base + at, datum.span.end),
                            item_spans: Vec::new(),
                        };
                    }
                }
            }
        }
    }

    fn unterminated(&self, frame: &Frame) -> Diagnostic {
        let end = self.line.trim_end_matches(is_whitespace).len();
        match frame {
            Frame::List { open, .. } => self
                .error(
                    DiagnosticKind::UnterminatedForm,
                    *open,
                    (*open + 1).max(end),
                    "this `(` is not closed on its line".into(),
                )
                .with_hint("a predicate must fit on one line; add the missing `)`"),
            Frame::Quote { at } => self.error(
                DiagnosticKind::UnterminatedForm,
                *at,
                *at + 1,
                "a quote `'` with nothing after it".into(),
            ),
        }
    }

    fn string(&mut self) -> Result<Datum, Diagnostic> {
        let start = self.pos;
        let mut value = String::new();
        let mut chars = self.line[start + 1..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos = start + 1 + i + 1;
                    return Ok(Datum {
                        arg: Arg::Str(value.into_boxed_str()),
                        span: self.span(start, self.pos),
                        item_spans: Vec::new(),
                    });
                }
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        value.push(e);
                    }
                }
                _ => value.push(c),
            }
        }
        Err(self.error(
            DiagnosticKind::UnterminatedForm,
            start,
            start + 1,
            "this string is not closed on its line".into(),
        ))
    }

    fn atom(&mut self) -> Result<Datum, Diagnostic> {
        let start = self.pos;
        let text = match token(self.rest()) {
            Ok((_, t)) => t,
            Err(_) => "",
        };
        self.pos += text.len().max(1);
        let end = start + text.len().max(1);
        let invalid = |msg: String| self.error(DiagnosticKind::InvalidToken, start, end, msg);
        let arg = if text.contains(['|', '\\']) {
            return Err(invalid(format!(
                "escape characters in `{text}` are not part of the cooking language"
            )));
        } else if text.chars().all(|c| c == '.') {
            return Err(invalid(format!(
                "`{text}`: a token made of dots cannot be read"
            )));
        } else if integer_syntax(text).is_ok() {
            let digits = text.trim_end_matches('.').trim_start_matches('+');
            let n = digits
                .parse::<i64>()
                .map_err(|_| invalid(format!("the integer {text} is out of range")))?;
            Arg::Num(Number::int(n))
        } else if ratio_syntax(text).is_ok() {
            let (n, d) = text
                .trim_start_matches('+')
                .split_once('/')
                .unwrap_or((text, "1"));
            let n = n.parse::<i64>();
            let d = d.parse::<i64>();
            match (n, d) {
                (Ok(n), Ok(d)) => Arg::Num(
                    Number::ratio(n, d)
                        .ok_or_else(|| invalid(format!("the ratio {text} divides by zero")))?,
                ),
                _ => return Err(invalid(format!("the ratio {text} is out of range"))),
            }
        } else if float_syntax(text).is_ok() {
            Arg::Num(self.float(text, start, end)?)
        } else if text.contains(':') {
            return Err(invalid(format!(
                "`{text}`: package prefixes are not part of the cooking language"
            )));
        } else if let Some(var) = text.strip_prefix('?') {
            Arg::Var(lower(var).into())
        } else {
            let name = lower(text);
            // NIL is the empty list to the Lisp reader.
            if name == "nil" {
                Arg::List(Box::default())
            } else {
                Arg::Sym(name.into())
            }
        };
        Ok(Datum {
            arg,
            span: self.span(start, end),
            item_spans: Vec::new(),
        })
    }

    fn float(&mut self, text: &str, start: usize, end: usize) -> Result<Number, Diagnostic> {
        let split = text.find(|c: char| c.is_ascii_alphabetic());
        let (mantissa, exp) = match split {
            Some(i) => (&text[..i], &text[i + 1..]),
            None => (text, "0"),
        };
        if let Some(i) = split
            && matches!(text.as_bytes()[i], b'd' | b'D' | b'l' | b'L')
        {
            self.warnings.push(
                self.error(
                    DiagnosticKind::DoubleFloat,
                    start,
                    end,
                    format!("`{text}` is a double float; it is read here as a single float"),
                )
                .with_hint("write the exponent with `e` (or use an exact ratio such as 1/2)"),
            );
        }
        let normal = format!(
            "{}e{exp}",
            mantissa.replace("+.", "0.").replace("-.", "-0.")
        );
        let normal = if normal.starts_with('.') {
            format!("0{normal}")
        } else {
            normal
        };
        let normal = normal.replace(".e", ".0e");
        match normal.parse::<f32>() {
            Ok(f) if f.is_finite() => Ok(Number::float(f)),
            _ => Err(self.error(
                DiagnosticKind::InvalidToken,
                start,
                end,
                format!("the float {text} is out of the single-float range"),
            )),
        }
    }
}

/// Symbols are case-insensitive; the canonical spelling here is lower case.
fn lower(s: &str) -> String {
    if s.is_ascii() {
        s.to_ascii_lowercase()
    } else {
        s.to_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Vec<Arg> {
        let p = parse(&format!("#r\n{line}\n"));
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        p.file.recipes[0].predicates[0].args.clone()
    }

    /// A long network names each kitchen state twice and its units at every action: each
    /// name's text is held once (it was a string per use).
    #[test]
    fn a_name_read_again_is_the_text_read_before() {
        let p = parse("#r\n(a ?x ?Y g)\n(b ?y ?z g)\n");
        let args = |i: usize| &p.file.recipes[0].predicates[i].args;
        let (Arg::Var(first), Arg::Var(again)) = (&args(0)[1], &args(1)[0]) else {
            panic!("variables read as {:?}", p.file);
        };
        assert!(Arc::ptr_eq(first, again) && &**first == "y");
        let (Arg::Sym(unit), Arg::Sym(unit_again)) = (&args(0)[2], &args(1)[2]) else {
            panic!("symbols read as {:?}", p.file);
        };
        assert!(Arc::ptr_eq(unit, unit_again) && &**unit == "g");
    }

    #[test]
    fn numbers_follow_the_lisp_reader() {
        let args = one("(p 230 -5 +7 5. 1/2 2/4 4/2 0.5 .25 1e3 -.5 1.5e-1 2f0)");
        let want = [
            Number::int(230),
            Number::int(-5),
            Number::int(7),
            Number::int(5),
            Number::ratio(1, 2).unwrap_or(Number::ZERO),
            Number::ratio(1, 2).unwrap_or(Number::ZERO),
            Number::int(2),
            Number::float(0.5),
            Number::float(0.25),
            Number::float(1000.0),
            Number::float(-0.5),
            Number::float(0.15),
            Number::float(2.0),
        ];
        let got: Vec<_> = args
            .iter()
            .map(|a| match a {
                Arg::Num(n) => *n,
                other => panic!("not a number: {other:?}"),
            })
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn symbols_variables_and_quotes() {
        let args = one("(p ?X ? Butter 1+ - 'x () nil (a (b)))");
        let shown: Vec<String> = args.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "?x",
                "?",
                "butter",
                "1+",
                "-",
                "(quote x)",
                "()",
                "()",
                "(a (b))"
            ]
        );
    }
}
