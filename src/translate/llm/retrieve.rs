//! Worked examples for the prompt: other recipes' texts with their gold networks, ranked by
//! BM25 against the recipe being translated. The recipe itself is never its own example.

use crate::language::diagnostic::{Diagnostics, line_col};
use crate::language::validate::read_checked;
use crate::simulation::Model;
use crate::translate::inventory::content_tokens;
use crate::translate::recipe_text::RecipeText;
use std::collections::HashMap;

/// A recipe text with its gold network.
#[derive(Clone, Debug)]
pub struct Example {
    pub id: String,
    pub text: String,
    pub network: String,
}

impl Example {
    /// Why this example's network is not in the language of `model`'s profile (its first
    /// error, located in the network), if it is not: shown to a model, it would teach the forms
    /// of another profile (a user benchmark's gold network written for 2024, say).
    pub fn misfit(&self, model: &Model) -> Option<String> {
        let text = format!("#{}\n{}\n", self.id, self.network);
        let into = Diagnostics::new().in_text_order().errors_only();
        let errors = read_checked(&text, &model.validator(), into).1;
        let error = errors.first()?;
        let (line, col) = line_col(&text, error.span.start);
        Some(format!(
            "line {}:{col}: {}",
            line.saturating_sub(1),
            error.message
        ))
    }
}

/// The recipe as the prompt shows it: title, ingredient lines, numbered instructions.
pub fn render_recipe(r: &RecipeText) -> String {
    let mut s = format!("Title: {}\nIngredients:\n", r.title);
    for i in &r.ingredients {
        s.push_str(&format!("- {i}\n"));
    }
    s.push_str("Instructions:\n");
    for (n, i) in r.instructions.iter().enumerate() {
        s.push_str(&format!("{}. {i}\n", n + 1));
    }
    s
}

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// The `k` examples with the highest BM25 score for `query`, best first (ties by id), leaving
/// out the example whose id is `exclude`.
pub fn retrieve<'e>(
    examples: &'e [Example],
    query: &str,
    exclude: &str,
    k: usize,
) -> Vec<&'e Example> {
    let docs: Vec<(&Example, Vec<String>)> = examples
        .iter()
        .filter(|e| e.id != exclude)
        .map(|e| (e, content_tokens(&e.text)))
        .collect();
    if docs.is_empty() {
        return Vec::new();
    }
    let n = docs.len() as f64;
    let avg = docs.iter().map(|(_, t)| t.len()).sum::<usize>() as f64 / n;
    let mut df: HashMap<&str, usize> = HashMap::new();
    for (_, tokens) in &docs {
        let mut seen: Vec<&str> = tokens.iter().map(String::as_str).collect();
        seen.sort_unstable();
        seen.dedup();
        for t in seen {
            *df.entry(t).or_default() += 1;
        }
    }
    let query = content_tokens(query);
    let mut scored: Vec<(f64, &Example)> = docs
        .iter()
        .map(|(e, tokens)| {
            let len = tokens.len() as f64;
            let score: f64 = query
                .iter()
                .map(|q| {
                    let tf = tokens.iter().filter(|t| *t == q).count() as f64;
                    let d = df.get(q.as_str()).copied().unwrap_or(0) as f64;
                    let idf = ((n - d + 0.5) / (d + 0.5) + 1.0).ln();
                    idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / avg))
                })
                .sum();
            (score, *e)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.id.cmp(&b.1.id)));
    scored.into_iter().take(k).map(|(_, e)| e).collect()
}
