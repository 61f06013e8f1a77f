//! The language-model translator: a prompt built from data, a chat backend, and the simulator
//! in the loop. Each candidate is parsed, validated and run; located diagnostics and actions
//! that did not run go back to the model for a bounded number of repair rounds, and the best
//! candidate by a gold-free score is kept. When no candidate is a valid network, the rules
//! translator's network is used instead (with a note), unless the caller measures the model
//! itself (`fallback: false`, as `benchmark` does).

pub mod chat;
pub mod grammar;
pub mod prompt;
pub mod retrieve;

use super::inventory::Inventory;
use super::quantity::parse_line;
use super::recipe_text::RecipeText;
use super::rules::RulesTranslator;
use super::{Provenance, TranslateError, Translation, Translator, check_solution};
use crate::language::ast::Arg;
use crate::language::diagnostic::{Diagnostic, DiagnosticKind, line_col};
use crate::language::parse::parse;
use crate::simulation::Model;
use chat::{ChatBackend, ChatError, ChatRequest, Message};
use retrieve::{Example, render_recipe, retrieve};
use std::time::{Duration, Instant};

/// How the translator talks to the model.
#[derive(Clone, Debug)]
pub struct LlmConfig {
    /// The model name sent to the server.
    pub model: String,
    /// Retrieved examples per prompt.
    pub examples: usize,
    /// Repair rounds after the first answer.
    pub repair_rounds: usize,
    /// Send the GBNF grammar of the model's catalogue ([`grammar::grammar`]; llama.cpp
    /// servers).
    pub grammar: bool,
    pub temperature: f32,
    pub max_tokens: u32,
    /// How long one recipe's translation may take, every request and retry included.
    pub deadline: Duration,
    /// Use the rules translator's network when the model gives no valid one; a benchmark of the
    /// model turns this off so that its table never shows the rules' scores.
    pub fallback: bool,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            model: "default".into(),
            examples: 2,
            repair_rounds: 2,
            grammar: false,
            temperature: 0.2,
            max_tokens: 2048,
            deadline: Duration::from_secs(300),
            fallback: true,
        }
    }
}

pub struct LlmTranslator<'m> {
    model: &'m Model,
    backend: Box<dyn ChatBackend + 'm>,
    config: LlmConfig,
    examples: Vec<Example>,
    inventory: Inventory,
    system: String,
    /// The grammar sent, when the configuration asks for one.
    grammar: Option<String>,
    fallback: RulesTranslator<'m>,
}

/// A candidate's gold-free assessment.
struct Assessment {
    /// 0 for an invalid network; else 1 + share of actions run + 1 if it ran to the end +
    /// share of the recipe's ingredients fetched.
    score: f64,
    problems: Vec<String>,
}

impl<'m> LlmTranslator<'m> {
    pub fn new(
        model: &'m Model,
        backend: Box<dyn ChatBackend + 'm>,
        config: LlmConfig,
        examples: Vec<Example>,
    ) -> LlmTranslator<'m> {
        let inventory = Inventory::of(model);
        let system = prompt::system_prompt(model, &inventory);
        let grammar = config.grammar.then(|| grammar::grammar(&model.catalogue));
        LlmTranslator {
            model,
            backend,
            config,
            examples,
            inventory,
            system,
            grammar,
            fallback: RulesTranslator::new(model),
        }
    }

    /// The first request for sample `sample` of `recipe`: the system prompt and the recipe
    /// with its retrieved examples.
    fn opening_request(&self, recipe: &RecipeText, sample: usize) -> ChatRequest {
        let user = prompt::user_prompt(&self.examples_for(recipe), &render_recipe(recipe));
        ChatRequest {
            model: self.config.model.clone(),
            messages: vec![
                Message::new("system", self.system.clone()),
                Message::new("user", user),
            ],
            temperature: self.config.temperature,
            seed: sample as u64,
            max_tokens: self.config.max_tokens,
            grammar: self.grammar.clone(),
        }
    }

    /// The examples the prompt for `recipe` shows (never the recipe itself).
    pub fn examples_for(&self, recipe: &RecipeText) -> Vec<&Example> {
        retrieve(
            &self.examples,
            &render_recipe(recipe),
            &recipe.id,
            self.config.examples,
        )
    }

    fn assess(&self, recipe: &RecipeText, solution: &str) -> Assessment {
        let checked = check_solution(self.model, solution);
        let mut problems: Vec<String> = checked
            .errors
            .iter()
            .map(|d| {
                let (line, col) = line_col(solution, d.span.start);
                let problem = self.problem(d, solution.lines().nth(line.saturating_sub(1)));
                // The header is ours: count lines of the model's answer, and give no place
                // for a problem of the whole answer (reported on the header).
                match line {
                    0 | 1 => problem,
                    _ => format!("line {}:{col}: {problem}", line - 1),
                }
            })
            .collect();
        if !problems.is_empty() {
            return Assessment {
                score: 0.0,
                problems,
            };
        }
        let parsed = parse(solution);
        let Some(network) = parsed.file.recipes.first() else {
            return Assessment {
                score: 0.0,
                problems: vec!["no actions found".into()],
            };
        };
        let wanted: Vec<String> = recipe
            .ingredients
            .iter()
            .filter_map(|l| self.inventory.find(&parse_line(l).name))
            .map(|s| s.class.clone())
            .collect();
        let fetched: Vec<&str> = network
            .predicates
            .iter()
            .filter(|p| p.name == "fetch-and-proportion")
            .filter_map(|p| match p.args.get(4) {
                Some(Arg::Sym(s)) => Some(&**s),
                _ => None,
            })
            .collect();
        let missing: Vec<&str> = wanted
            .iter()
            .map(String::as_str)
            .filter(|w| !fetched.contains(w))
            .collect();
        let coverage = if wanted.is_empty() {
            1.0
        } else {
            1.0 - missing.len() as f64 / wanted.len() as f64
        };
        if !missing.is_empty() {
            problems.push(format!(
                "these recipe ingredients are never fetched: {}",
                missing.join(", ")
            ));
        }
        let total = network.predicates.len().max(1) as f64;
        let (ran, solved) = match (&checked.execution, &checked.crash) {
            (Some(e), _) => {
                if !e.solved {
                    let run: Vec<usize> = e.steps.iter().map(|s| s.predicate).collect();
                    for (i, p) in network.predicates.iter().enumerate() {
                        if !run.contains(&i) {
                            problems.push(format!(
                                "line {}: `{p}` never ran (its inputs were never bound or have the wrong types)",
                                i + 1
                            ));
                        }
                    }
                }
                (e.steps.len() as f64 / total, e.solved)
            }
            (None, Some(c)) => {
                let at = c
                    .predicate
                    .and_then(|i| {
                        network
                            .predicates
                            .get(i)
                            .map(|p| format!(" at line {}: `{p}`", i + 1))
                    })
                    .unwrap_or_default();
                problems.push(format!("the simulation aborts{at}: {}", c.message));
                (0.0, false)
            }
            (None, None) => (0.0, false),
        };
        Assessment {
            score: 1.0 + ran + if solved { 1.0 } else { 0.0 } + coverage,
            problems,
        }
    }
}

impl LlmTranslator<'_> {
    /// A diagnostic as the repair turn says it: with its hint, and for an action of the wrong
    /// arity the primitive's form in the profile translated for (the validator's hint may
    /// point to the other profile, which is not the model's to choose).
    fn problem(&self, d: &Diagnostic, line: Option<&str>) -> String {
        let primitive = line
            .and_then(|l| l.trim_start().strip_prefix('('))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|name| self.model.catalogue.get(name));
        match (d.kind, primitive, &d.hint) {
            (DiagnosticKind::WrongArity, Some(sig), _) => {
                format!("{}; write it as {}", d.message, prompt::form(sig))
            }
            (_, _, Some(hint)) => format!("{} ({hint})", d.message),
            _ => d.message.clone(),
        }
    }
}

/// The network lines of an answer: lines that start with `(`, without code fences or prose,
/// under our own header (an answer's own `#` header is ignored). A last line without its `)`
/// is an answer cut at the token limit and is dropped: what came before may still run.
pub fn extract_network(id: &str, answer: &str) -> String {
    let mut s = format!("#{id}\n");
    let lines: Vec<&str> = answer
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('('))
        .collect();
    let complete = match lines.last() {
        Some(last) if !last.ends_with(')') => &lines[..lines.len() - 1],
        _ => &lines[..],
    };
    for line in complete {
        s.push_str(line);
        s.push('\n');
    }
    s
}

impl Translator for LlmTranslator<'_> {
    fn name(&self) -> &str {
        "llm"
    }

    /// The first request's digest is the response cache's key for its answer.
    fn provenance(&self, recipe: &RecipeText, sample: usize) -> Provenance {
        Provenance {
            model: Some(self.config.model.clone()),
            input: "the first chat request (prompt and sampling settings): its response cache key",
            input_sha256: self.opening_request(recipe, sample).key(),
        }
    }

    fn translate(
        &mut self,
        recipe: &RecipeText,
        sample: usize,
    ) -> Result<Translation, TranslateError> {
        let mut request = self.opening_request(recipe, sample);
        // A repair turn shows only the latest answer and its problems, so the context stays
        // bounded whatever the number of rounds (small models have 8k tokens or fewer).
        let opening = request.messages.len();
        let mut notes = Vec::new();
        let mut best: Option<(f64, String)> = None;
        let deadline = Instant::now() + self.config.deadline;
        let mut unavailable = false;
        for round in 0..=self.config.repair_rounds {
            let answer = match self.backend.complete(&request, deadline) {
                Ok(a) => a,
                Err(e) => {
                    unavailable = matches!(e, ChatError::Unavailable(_) | ChatError::NotCached(_));
                    notes.push(format!("round {round}: {e}"));
                    break;
                }
            };
            let candidate = extract_network(&recipe.id, &answer);
            let assessment = self.assess(recipe, &candidate);
            if assessment.score > 0.0 && best.as_ref().is_none_or(|(s, _)| assessment.score > *s) {
                best = Some((assessment.score, candidate));
            }
            if assessment.problems.is_empty() {
                break;
            }
            notes.push(format!(
                "round {round}: {} problem(s), first: {}",
                assessment.problems.len(),
                assessment.problems[0]
            ));
            request.messages.truncate(opening);
            request.messages.push(Message::new("assistant", answer));
            request
                .messages
                .push(prompt::repair_prompt(&assessment.problems));
        }
        match best {
            Some((_, solution)) => Ok(Translation {
                solution,
                notes,
                untranslated: None,
            }),
            None if !self.config.fallback => Err(TranslateError {
                message: format!("no valid network from the model ({})", notes.join("; ")),
                unavailable,
            }),
            None => {
                let mut t = self.fallback.translate(recipe, sample)?;
                notes.push(
                    "no valid network from the model; the rules translator's network is used"
                        .into(),
                );
                notes.append(&mut t.notes);
                t.notes = notes;
                Ok(t)
            }
        }
    }
}
