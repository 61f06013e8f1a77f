//! Problems in the JSON data files a user writes (an ontology extension, a kitchen): which
//! field, and where in the file, so that a message says `file:line:column` and the field's
//! path rather than only what went wrong.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value as Json};
use std::cell::Cell;
use std::fmt;
use std::path::{Path, PathBuf};

/// The largest data file read (an ontology extension, a kitchen): far above the built-in
/// ontology (160 KB) and kitchen (22 KB), and above what the bounds on classes and counted
/// objects let a file use; its JSON value takes about ten times its size in memory.
pub const MAX_DATA_FILE_BYTES: u64 = 8 << 20;

/// One step of a path into a JSON document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// A problem with one field of a JSON document, by its path from the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub path: Vec<Step>,
    pub message: String,
}

impl FieldError {
    /// A problem with the value being read; callers add the steps that led to it.
    pub fn new(message: impl Into<String>) -> FieldError {
        FieldError {
            path: Vec::new(),
            message: message.into(),
        }
    }

    /// The same problem seen from the object holding `key`.
    pub fn in_key(mut self, key: &str) -> FieldError {
        self.path.insert(0, Step::Key(key.to_owned()));
        self
    }

    /// The same problem seen from the array holding item `index`.
    pub fn in_item(mut self, index: usize) -> FieldError {
        self.path.insert(0, Step::Index(index));
        self
    }

    /// The path as written in messages: `classes.halloumi.is_a[0]`.
    pub fn field(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            match step {
                Step::Key(k) if out.is_empty() => out.push_str(k),
                Step::Key(k) => {
                    out.push('.');
                    out.push_str(k);
                }
                Step::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.field(), self.message)
        }
    }
}

impl std::error::Error for FieldError {}

impl From<String> for FieldError {
    fn from(message: String) -> FieldError {
        FieldError::new(message)
    }
}

impl From<&str> for FieldError {
    fn from(message: &str) -> FieldError {
        FieldError::new(message)
    }
}

/// A data file that cannot be used: read or located, with what kind of file it is (`kitchen`,
/// `ontology`) so the message says which one is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataFileProblem {
    #[error("{}: cannot read the {kind} file: {reason}", path.display())]
    Unreadable {
        path: PathBuf,
        kind: &'static str,
        reason: String,
    },
    #[error("{}:{line}:{column}: not a usable {kind} file: {reason}", path.display())]
    Unusable {
        path: PathBuf,
        kind: &'static str,
        line: usize,
        column: usize,
        reason: String,
    },
}

impl DataFileProblem {
    /// A field error of `text` (the file at `path`), located.
    pub fn located(path: PathBuf, kind: &'static str, text: &str, e: &FieldError) -> Self {
        let (line, column) = line_column(text, position(text, &e.path));
        DataFileProblem::Unusable {
            path,
            kind,
            line,
            column,
            reason: e.to_string(),
        }
    }

    /// The JSON of `text` (the file at `path`): a syntax error located where serde_json
    /// stopped, a key an object gives twice at its second entry.
    pub fn parse(path: &Path, kind: &'static str, text: &str) -> Result<Json, Self> {
        let repeated = Cell::new(None);
        let mut reader = serde_json::Deserializer::from_str(text);
        let seed = Unique {
            trail: Trail::Root,
            repeated: &repeated,
        };
        let parsed = seed.deserialize(&mut reader).and_then(|v| {
            reader.end()?;
            Ok(v)
        });
        parsed.map_err(|e| match repeated.take() {
            Some(at) => {
                let (line, column) = line_column(text, position(text, &at));
                let reason = FieldError {
                    path: at,
                    message: format!(
                        "a second entry with this key (the first is at {line}:{column}); \
                         an object gives each key once"
                    ),
                };
                let (line, column) = line_column(text, position_of_repeat(text, &reason.path));
                DataFileProblem::Unusable {
                    path: path.to_owned(),
                    kind,
                    line,
                    column,
                    reason: reason.to_string(),
                }
            }
            None => DataFileProblem::syntax(path.to_owned(), kind, &e),
        })
    }

    /// A file that is not JSON at all, located where serde_json stopped.
    pub fn syntax(path: PathBuf, kind: &'static str, e: &serde_json::Error) -> Self {
        let place = format!(" at line {} column {}", e.line(), e.column());
        DataFileProblem::Unusable {
            path,
            kind,
            line: e.line(),
            column: e.column(),
            reason: e.to_string().trim_end_matches(&place).to_owned(),
        }
    }
}

/// Where the value being read sits: a chain of steps up to the root, kept on the stack so
/// that only a refusal builds a path.
#[derive(Clone, Copy)]
enum Trail<'a> {
    Root,
    Key(&'a Trail<'a>, &'a str),
    Item(&'a Trail<'a>, usize),
}

impl Trail<'_> {
    fn path(&self) -> Vec<Step> {
        let mut path = Vec::new();
        let mut at = self;
        loop {
            match at {
                Trail::Root => break,
                Trail::Key(up, key) => {
                    path.push(Step::Key((*key).to_owned()));
                    at = up;
                }
                Trail::Item(up, index) => {
                    path.push(Step::Index(*index));
                    at = up;
                }
            }
        }
        path.reverse();
        path
    }
}

/// A JSON value read as serde_json's `Value` reads it, except that an object giving a key
/// twice is refused (`Value` keeps the last, so a second `halloumi` would replace the first
/// without a word); the repeated key's path is left in `repeated`.
struct Unique<'a> {
    trail: Trail<'a>,
    repeated: &'a Cell<Option<Vec<Step>>>,
}

impl<'de> DeserializeSeed<'de> for Unique<'_> {
    type Value = Json;

    fn deserialize<D: serde::Deserializer<'de>>(self, reader: D) -> Result<Json, D::Error> {
        reader.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Unique<'_> {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
        Ok(Json::from(n))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
        Ok(Json::from(n))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Json, E> {
        Ok(serde_json::Number::from_f64(x).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Json, A::Error> {
        let mut out = Vec::new();
        loop {
            let seed = Unique {
                trail: Trail::Item(&self.trail, out.len()),
                repeated: self.repeated,
            };
            match items.next_element_seed(seed)? {
                Some(item) => out.push(item),
                None => return Ok(Json::Array(out)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Json, A::Error> {
        let mut out = Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            let trail = Trail::Key(&self.trail, &key);
            if out.contains_key(&key) {
                self.repeated.set(Some(trail.path()));
                return Err(de::Error::custom("a key given twice"));
            }
            let seed = Unique {
                trail,
                repeated: self.repeated,
            };
            let value = entries.next_value_seed(seed)?;
            out.insert(key, value);
        }
        Ok(Json::Object(out))
    }
}

/// 1-based line and column (in bytes, as serde_json counts) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line, before.len() - start + 1)
}

/// The byte offset in `text` (valid JSON) of the field at `path`: the key of an object's
/// entry, an array's item; the deepest field that exists when the path goes further.
pub fn position(text: &str, path: &[Step]) -> usize {
    locate(text, path, false)
}

/// The byte offset of the second entry with the key that ends `path`, in an object that
/// gives it twice; the first's when there is no second.
fn position_of_repeat(text: &str, path: &[Step]) -> usize {
    locate(text, path, true)
}

fn locate(text: &str, path: &[Step], second: bool) -> usize {
    let mut scan = Scanner {
        bytes: text.as_bytes(),
        at: 0,
    };
    scan.space();
    let mut found = scan.at;
    for (i, step) in path.iter().enumerate() {
        let mut entered = scan.enter(step);
        if second && i + 1 == path.len() && entered.is_some() {
            scan.value();
            entered = scan.entry(step).or(entered);
        }
        match entered {
            Some(at) => found = at,
            None => break,
        }
    }
    found
}

/// A cursor over valid JSON text that skips values without building them.
struct Scanner<'t> {
    bytes: &'t [u8],
    at: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    /// Move into the value at `step` of the value under the cursor; where its key (or item)
    /// starts, with the cursor on its value.
    fn enter(&mut self, step: &Step) -> Option<usize> {
        let open = match step {
            Step::Key(_) => b'{',
            Step::Index(_) => b'[',
        };
        if self.peek() != Some(open) {
            return None;
        }
        self.at += 1;
        self.entry(step)
    }

    /// The entry at `step` among the entries from the cursor on (past the opening bracket or
    /// an entry's value), with the cursor on its value.
    fn entry(&mut self, step: &Step) -> Option<usize> {
        let mut index = 0;
        let close = match step {
            Step::Key(_) => b'}',
            Step::Index(_) => b']',
        };
        loop {
            self.space();
            match self.peek() {
                None => return None,
                Some(b) if b == close => return None,
                Some(b',') => {
                    self.at += 1;
                    continue;
                }
                Some(_) => {}
            }
            let start = self.at;
            let hit = match step {
                Step::Key(key) => {
                    self.string();
                    let name: Option<String> = std::str::from_utf8(&self.bytes[start..self.at])
                        .ok()
                        .and_then(|raw| serde_json::from_str(raw).ok());
                    self.space();
                    self.at += 1; // the colon
                    self.space();
                    name.as_deref() == Some(key.as_str())
                }
                Step::Index(i) => *i == index,
            };
            if hit {
                return Some(start);
            }
            self.value();
            index += 1;
        }
    }

    fn string(&mut self) {
        self.at += 1;
        while let Some(b) = self.peek() {
            self.at += 1;
            match b {
                b'\\' => self.at += 1,
                b'"' => return,
                _ => {}
            }
        }
    }

    fn value(&mut self) {
        match self.peek() {
            Some(b'"') => self.string(),
            Some(b'{' | b'[') => {
                let mut depth = 0usize;
                while let Some(b) = self.peek() {
                    match b {
                        b'"' => {
                            self.string();
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                self.at += 1;
                                return;
                            }
                        }
                        _ => {}
                    }
                    self.at += 1;
                }
            }
            _ => {
                while self
                    .peek()
                    .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
                {
                    self.at += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DataFileProblem, Step, line_column, position};
    use std::path::Path;

    /// A key given twice, however deep, is refused at its second entry; the first is named.
    #[test]
    fn a_key_given_twice_is_refused_at_its_second_entry() {
        let parse = |text: &str| DataFileProblem::parse(Path::new("k.json"), "kitchen", text);
        let refused = parse("{\"a\": [1, {\"b\": 1, \"c\": {}, \"b\": 2}]}").expect_err("refused");
        assert_eq!(
            refused.to_string(),
            "k.json:1:29: not a usable kitchen file: a[1].b: a second entry with this key \
             (the first is at 1:12); an object gives each key once"
        );
        let same = parse("{\"a\": [{\"b\": 1}, {\"b\": 1}], \"c\": 1e3}").expect("one key each");
        assert_eq!(same["a"][1]["b"], 1);
        assert_eq!(same["c"], 1000.0);
        let broken = parse("{\"a\": 1,}").expect_err("refused");
        assert_eq!(
            broken.to_string(),
            "k.json:1:9: not a usable kitchen file: trailing comma"
        );
    }

    #[test]
    fn fields_are_found_by_their_path() {
        let text = "{\n  \"a\": [1, {\"b\\\"\": 2, \"c\": [\"x\", \"y\"]}],\n  \"d\": {}\n}";
        let at = |path: &[Step]| line_column(text, position(text, path));
        let key = |k: &str| Step::Key(k.into());
        assert_eq!(at(&[]), (1, 1));
        assert_eq!(at(&[key("d")]), (3, 3));
        assert_eq!(at(&[key("a"), Step::Index(1)]), (2, 12));
        assert_eq!(at(&[key("a"), Step::Index(1), key("c")]), (2, 23));
        assert_eq!(
            at(&[key("a"), Step::Index(1), key("c"), Step::Index(1)]),
            (2, 34)
        );
        // A path past what the text holds stops at the deepest field found.
        assert_eq!(at(&[key("d"), key("e")]), (3, 3));
        assert_eq!(at(&[key("a"), Step::Index(5)]), (2, 3));
    }
}
