//! Recipe text as the translators read it: an id, ingredient lines and instruction lines, from
//! a benchmark recipe XML file, a plain-text file or a web page carrying a schema.org `Recipe`
//! in JSON-LD.

use quick_xml::escape::{resolve_html5_entity, unescape_with};
use quick_xml::events::{BytesRef, Event};
use quick_xml::reader::Reader;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt;
use std::path::Path;

/// One recipe's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipeText {
    /// The recipe id written in the `.solution` header.
    pub id: String,
    pub title: String,
    pub ingredients: Vec<String>,
    pub instructions: Vec<String>,
    /// The line of the file each ingredient starts on (1-based), for located notes.
    pub ingredient_lines: Vec<usize>,
    /// The line of the file each instruction starts on (1-based).
    pub instruction_lines: Vec<usize>,
}

/// Why a file could not be read as a recipe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError(pub String);

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReadError {}

/// The largest recipe file read: 8 MiB. The benchmark's texts are under 13 KB and a recipe page
/// with its markup and scripts a few megabytes; reading costs a few bytes per byte of text.
pub const MAX_TEXT_BYTES: u64 = 8 << 20;

/// The most ingredient and instruction lines translated from one recipe: the benchmark's
/// longest has 26, and the translators' work grows faster than the number of lines (every
/// instruction is matched against every ingredient, every candidate network simulated).
pub const MAX_RECIPE_LINES: usize = 1_000;

/// Read a recipe file, telling the form from its content: `<recipe>` XML, an HTML page with
/// JSON-LD, else plain text. The file stem is the id where the text has none. A file over
/// [`MAX_TEXT_BYTES`] or a recipe over [`MAX_RECIPE_LINES`] is refused, naming the file.
pub fn read(path: &Path) -> Result<RecipeText, ReadError> {
    use std::io::Read;
    let refused = |why: String| ReadError(format!("{}: {why}", path.display()));
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_TEXT_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| refused(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(refused(format!(
            "more than {MAX_TEXT_BYTES} bytes (8 MiB); recipe texts of at most that are read"
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        refused(format!(
            "not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "recipe".into());
    from_text(&text, &stem).map_err(|e| ReadError(format!("{}: {e}", path.display())))
}

/// Parse recipe text in any of the three forms; `fallback_id` names a recipe whose text has no
/// id of its own.
pub fn from_text(text: &str, fallback_id: &str) -> Result<RecipeText, ReadError> {
    let lower = text.to_ascii_lowercase();
    let recipe = if lower.trim_start().starts_with("<recipe") || lower.contains("<recipe>") {
        from_xml(text, fallback_id)
    } else if lower.contains("<html") || lower.contains("application/ld+json") {
        from_html(text, fallback_id)?
    } else {
        from_plain(text, fallback_id)
    };
    if recipe.ingredients.is_empty() {
        return Err(ReadError("no ingredient lines found".into()));
    }
    if recipe.instructions.is_empty() {
        return Err(ReadError("no instruction lines found".into()));
    }
    let lines = recipe.ingredients.len() + recipe.instructions.len();
    if lines > MAX_RECIPE_LINES {
        return Err(ReadError(format!(
            "{} ingredient and {} instruction lines; recipes of at most {MAX_RECIPE_LINES} lines are translated",
            recipe.ingredients.len(),
            recipe.instructions.len()
        )));
    }
    Ok(recipe)
}

/// The benchmark's `<recipe>` files: `<id>`, `<title>`, `<ingredient>` and `<instruction>`.
fn from_xml(text: &str, fallback_id: &str) -> RecipeText {
    let mut recipe = RecipeText {
        id: String::new(),
        title: String::new(),
        ingredients: Vec::new(),
        instructions: Vec::new(),
        ingredient_lines: Vec::new(),
        instruction_lines: Vec::new(),
    };
    let mut reader = lenient_reader(text);
    let mut lines = Lines::new(text);
    // The element being read: its name, its text so far and where that text starts.
    let mut open: Option<(&'static str, String, usize)> = None;
    loop {
        let before = offset(&reader);
        match reader.read_event() {
            Ok(Event::Start(e)) if open.is_none() => {
                open = ["id", "title", "ingredient", "instruction"]
                    .into_iter()
                    .find(|tag| e.name().as_ref() == tag.as_bytes())
                    .map(|tag| (tag, String::new(), offset(&reader)));
            }
            Ok(Event::Text(t)) => {
                if let Some((_, body, start)) = open.as_mut() {
                    let raw = t.decode().unwrap_or_default();
                    if body.trim().is_empty() {
                        *start = before + (raw.len() - raw.trim_start().len());
                    }
                    body.push_str(&raw);
                }
            }
            Ok(Event::CData(t)) => {
                if let Some((_, body, _)) = open.as_mut() {
                    body.push_str(&t.decode().unwrap_or_default());
                }
            }
            Ok(Event::GeneralRef(r)) => {
                if let Some((_, body, _)) = open.as_mut() {
                    push_reference(body, &r);
                }
            }
            Ok(Event::End(e)) => {
                let Some((tag, body, start)) =
                    open.take_if(|(tag, ..)| e.name().as_ref() == tag.as_bytes())
                else {
                    continue;
                };
                let item = squeeze(&body);
                if item.is_empty() {
                    continue;
                }
                let line = lines.at(start);
                match tag {
                    "id" if recipe.id.is_empty() => recipe.id = item,
                    "title" if recipe.title.is_empty() => recipe.title = item,
                    "ingredient" => {
                        recipe.ingredients.push(item);
                        recipe.ingredient_lines.push(line);
                    }
                    "instruction" => {
                        recipe.instructions.push(item);
                        recipe.instruction_lines.push(line);
                    }
                    _ => {}
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
    }
    if recipe.id.is_empty() {
        recipe.id = fallback_id.to_string();
    }
    recipe
}

/// A reader that takes what real files hold rather than refusing it: end tags that do not
/// match (HTML leaves many elements open) and `&` standing alone.
fn lenient_reader(text: &str) -> Reader<&[u8]> {
    let mut reader = Reader::from_str(text);
    let config = reader.config_mut();
    config.check_end_names = false;
    config.allow_unmatched_ends = true;
    config.allow_dangling_amp = true;
    reader
}

/// The reader's byte offset into the text.
fn offset(reader: &Reader<&[u8]>) -> usize {
    usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX)
}

/// An entity or character reference as the character it names (HTML's named entities
/// included, since recipe pages use them); one nothing names is kept as written.
fn push_reference(body: &mut String, reference: &BytesRef<'_>) {
    let name = reference.decode().unwrap_or_default();
    match reference.resolve_char_ref() {
        Ok(Some(c)) => body.push(c),
        _ => match resolve_html5_entity(&name) {
            Some(s) => body.push_str(s),
            None => {
                body.push('&');
                body.push_str(&name);
                body.push(';');
            }
        },
    }
}

/// Text from JSON-LD with its entity references decoded (pages often escape `&` twice); text
/// whose `&` starts no reference is kept as written.
fn decode_entities(s: &str) -> String {
    unescape_with(s, resolve_html5_entity).map_or_else(|_| s.to_string(), Cow::into_owned)
}

/// The 1-based line of byte `offset`.
fn line_at(text: &str, offset: usize) -> usize {
    Lines::new(text).at(offset)
}

/// The lines of byte offsets asked for in increasing order, the text counted once: counted
/// from the start for each item, a file of many items took time of their number squared.
struct Lines<'t> {
    text: &'t [u8],
    counted: usize,
    line: usize,
}

impl<'t> Lines<'t> {
    fn new(text: &'t str) -> Lines<'t> {
        Lines {
            text: text.as_bytes(),
            counted: 0,
            line: 1,
        }
    }

    /// The 1-based line of byte `offset` (an offset before the last one asked is counted
    /// again from the start).
    fn at(&mut self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        if offset < self.counted {
            (self.counted, self.line) = (0, 1);
        }
        self.line += self.text[self.counted..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.counted = offset;
        self.line
    }
}

/// Collapse runs of whitespace into one space and trim.
fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Plain text: ingredient lines, then instruction lines. The two parts are told apart by
/// `Ingredients` / `Instructions` (or `Method`, `Directions`, `Steps`) headings, else by the
/// first blank line. A first line `# id` or `id: …` names the recipe; a first line without a
/// digit standing alone (before the first heading, or followed by a blank line) is the title.
/// Sub-headings (`For the dressing:`) and step numbers (`3.`, `Step 3:`) are not text to cook.
fn from_plain(text: &str, fallback_id: &str) -> RecipeText {
    let mut recipe = RecipeText {
        id: fallback_id.to_string(),
        title: String::new(),
        ingredients: Vec::new(),
        instructions: Vec::new(),
        ingredient_lines: Vec::new(),
        instruction_lines: Vec::new(),
    };
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let has_headings = lines.iter().any(|l| heading(l).is_some());
    let mut in_instructions = false;
    let mut seen_heading = false;
    let mut seen_ingredient = false;
    for (n, &trimmed) in lines.iter().enumerate() {
        if let Some(h) = heading(trimmed) {
            in_instructions = h == Part::Instructions;
            seen_heading = true;
            continue;
        }
        if let Some(rest) = trimmed
            .strip_prefix("id:")
            .or_else(|| trimmed.strip_prefix('#'))
        {
            recipe.id = rest.trim().to_string();
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("title:") {
            recipe.title = rest.trim().to_string();
            continue;
        }
        if trimmed.is_empty() {
            if !has_headings && seen_ingredient {
                in_instructions = true;
            }
            continue;
        }
        let stands_alone = if has_headings {
            !seen_heading
        } else {
            lines.get(n + 1).is_none_or(|l| l.is_empty())
        };
        if recipe.title.is_empty()
            && !seen_ingredient
            && stands_alone
            && !trimmed.contains(|c: char| c.is_ascii_digit())
        {
            recipe.title = squeeze(trimmed);
            continue;
        }
        let item = squeeze(strip_bullet(trimmed));
        if item.is_empty() || is_sub_heading(&item) {
            continue;
        }
        if in_instructions {
            recipe.instructions.push(item);
            recipe.instruction_lines.push(n + 1);
        } else {
            seen_ingredient = true;
            recipe.ingredients.push(item);
            recipe.ingredient_lines.push(n + 1);
        }
    }
    recipe
}

#[derive(PartialEq)]
enum Part {
    Ingredients,
    Instructions,
}

fn heading(line: &str) -> Option<Part> {
    let word = line
        .trim_start_matches('#')
        .trim()
        .trim_end_matches(':')
        .trim()
        .to_ascii_lowercase();
    match word.as_str() {
        "ingredients" => Some(Part::Ingredients),
        "instructions" | "method" | "directions" | "steps" | "preparation" => {
            Some(Part::Instructions)
        }
        _ => None,
    }
}

/// `For the dressing:`: a short line ending with a colon names a part of the recipe.
fn is_sub_heading(line: &str) -> bool {
    line.ends_with(':') && line.split_whitespace().count() <= 5
}

/// `- 2 eggs`, `* 2 eggs`, `3. Bake`, `Step 3: Bake` → the item without its list marker.
fn strip_bullet(line: &str) -> &str {
    let l = line.trim_start_matches(['-', '*', '•']).trim_start();
    let l = match l.get(..4) {
        Some(w) if w.eq_ignore_ascii_case("step") => {
            let rest = l[4..].trim_start();
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            if digits > 0 {
                return rest[digits..]
                    .trim_start_matches([':', '.', ')', '-'])
                    .trim_start();
            }
            l
        }
        _ => l,
    };
    let digits = l.chars().take_while(char::is_ascii_digit).count();
    match l[digits..].strip_prefix(['.', ')']) {
        Some(rest) if digits > 0 && (rest.is_empty() || rest.starts_with(' ')) => rest.trim_start(),
        _ => l,
    }
}

/// A web page: the first schema.org `Recipe` in its `application/ld+json` scripts (also inside
/// `@graph` or a list). Every script's content is read as raw text up to its end tag, as
/// browsers do, so neither JavaScript nor markup inside JSON strings is taken for elements.
fn from_html(text: &str, fallback_id: &str) -> Result<RecipeText, ReadError> {
    let mut reader = lenient_reader(text);
    // Why the first JSON-LD block that could not be read was not, for the error.
    let mut unreadable: Option<String> = None;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) if e.name().as_ref().eq_ignore_ascii_case(b"script") => {
                let json_ld = e.html_attributes().flatten().any(|a| {
                    a.key.as_ref().eq_ignore_ascii_case(b"type")
                        && String::from_utf8_lossy(&a.value)
                            .to_ascii_lowercase()
                            .contains("application/ld+json")
                });
                let start = offset(&reader);
                let end = e.to_end().into_owned();
                let Ok(content) = reader.read_text(end.name()) else {
                    break;
                };
                if !json_ld {
                    continue;
                }
                let json = content.decode().unwrap_or_default();
                let json = match serde_json::from_str::<Value>(&json) {
                    Ok(json) => json,
                    Err(e) => {
                        unreadable.get_or_insert_with(|| json_ld_error(&e, line_at(text, start)));
                        continue;
                    }
                };
                if let Some(recipe) = find_recipe(&json) {
                    return Ok(from_json_ld(recipe, fallback_id, line_at(text, start)));
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
    }
    let found = "no schema.org Recipe in a <script type=\"application/ld+json\"> block";
    Err(ReadError(match unreadable {
        Some(why) => format!("{found}: {why}"),
        None => found.into(),
    }))
}

/// Why a JSON-LD block starting on `line` could not be read. The JSON reader refuses nesting
/// past its recursion limit (128 levels), which no recipe needs: said as that, since "no
/// Recipe" alone would send the user looking for a missing one.
fn json_ld_error(e: &serde_json::Error, line: usize) -> String {
    let reason = e.to_string();
    if reason.starts_with("recursion limit exceeded") {
        format!(
            "the block on line {line} nests arrays or objects more than 128 levels deep, deeper than is read"
        )
    } else {
        format!("the block on line {line} is not JSON ({reason})")
    }
}

fn find_recipe(v: &Value) -> Option<&Value> {
    match v {
        Value::Array(items) => items.iter().find_map(find_recipe),
        Value::Object(map) => {
            let is_recipe = match map.get("@type") {
                Some(Value::String(t)) => t == "Recipe",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "Recipe"),
                _ => false,
            };
            if is_recipe {
                Some(v)
            } else {
                map.get("@graph").and_then(find_recipe)
            }
        }
        _ => None,
    }
}

/// A JSON-LD recipe; its lines are the line its script block starts on.
fn from_json_ld(recipe: &Value, fallback_id: &str, line: usize) -> RecipeText {
    let mut instructions = Vec::new();
    collect_steps(recipe.get("recipeInstructions"), &mut instructions);
    let ingredients = match recipe.get("recipeIngredient") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(|s| squeeze(&decode_entities(s)))
            .filter(|s| !s.is_empty())
            .collect(),
        Some(Value::String(s)) => vec![squeeze(&decode_entities(s))],
        _ => Vec::new(),
    };
    RecipeText {
        id: fallback_id.to_string(),
        title: recipe
            .get("name")
            .and_then(Value::as_str)
            .map(|s| squeeze(&decode_entities(s)))
            .unwrap_or_default(),
        ingredient_lines: vec![line; ingredients.len()],
        instruction_lines: vec![line; instructions.len()],
        ingredients,
        instructions,
    }
}

/// Instructions as a string (one step a line), a list of strings, `HowToStep`s (`text`) or
/// `HowToSection`s (`itemListElement`).
fn collect_steps(v: Option<&Value>, out: &mut Vec<String>) {
    match v {
        Some(Value::String(s)) => out.extend(
            decode_entities(s)
                .lines()
                .map(squeeze)
                .filter(|l| !l.is_empty()),
        ),
        Some(Value::Array(items)) => items.iter().for_each(|i| collect_steps(Some(i), out)),
        Some(Value::Object(map)) => {
            if let Some(list) = map.get("itemListElement") {
                collect_steps(Some(list), out);
            } else if let Some(text) = map.get("text").or_else(|| map.get("name")) {
                collect_steps(Some(text), out);
            }
        }
        _ => {}
    }
}
