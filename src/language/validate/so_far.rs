//! One recipe's network validated a line at a time, as an agent's session writes it: each
//! line is checked against what the lines before it established (the recipe's get-kitchen
//! actions, each variable's producers and uses, the variables of actions that could not be
//! read), never against their text again, so a line costs what it holds however long the
//! network is.
//!
//! What a line adds is exactly what validating the whole network again would add for it: its
//! own errors and warnings as the network stands once it is written (it is the last line),
//! and the recipe's get-kitchen error when the line changes it (the one error of the network
//! a line can change elsewhere: every other check is of one line, and the warnings a line
//! changes for earlier lines, an output now used, are not the new line's).

use super::{Validator, get_kitchen_count, multiple_producers, unproduced, unused_output};
use crate::data::catalogue::Role;
use crate::language::ast::{Arg, Predicate, Span};
use crate::language::dependencies::Occurrence;
use crate::language::diagnostic::{Diagnostic, Diagnostics};
use crate::language::parse::{Parsed, parse, parse_line};
use indexmap::IndexMap;
use std::collections::HashMap;

/// What the lines so far established about one variable: as [`crate::language::dependencies::Network`]
/// chooses a producer (the first always-produced position, else the first defaulted one),
/// kept as counts and firsts so that a line updates it in its own time.
#[derive(Clone, Debug, Default)]
struct Flow {
    occurrences: usize,
    /// Occurrences in always-produced positions (output, kitchen-state out).
    definite: usize,
    first_definite: Option<Occurrence>,
    first_defaulted: Option<Occurrence>,
}

impl Flow {
    fn producer(&self) -> Option<Occurrence> {
        self.first_definite.or(self.first_defaulted)
    }
}

fn is_definite(role: Role) -> bool {
    matches!(role, Role::Output | Role::KitchenStateOut)
}

/// One action read: the roles of its arguments when the catalogue knows its primitive with
/// that arity (it then takes part in the data flow).
#[derive(Clone, Debug)]
struct Action {
    predicate: Predicate,
    roles: Option<Vec<Role>>,
}

/// What one line adds to the network's diagnostics.
#[derive(Clone, Debug)]
pub struct LineChecked {
    /// The line's action, located in the whole text.
    pub predicate: Option<Predicate>,
    /// Its errors (the line's own, and the recipe's get-kitchen error when the line changed
    /// it), then its warnings, each in the order validating the whole text finds them. A
    /// line's length bounds them, so all are kept.
    pub diagnostics: Vec<Diagnostic>,
}

/// What one line given held, to take it back.
#[derive(Clone, Copy, Debug)]
struct Held {
    action: bool,
    /// An error of the line's own (its text or its action's), not the recipe's.
    error: bool,
}

/// The network of one recipe so far: its header, then the lines given.
#[derive(Clone, Debug)]
pub struct NetworkSoFar {
    id: String,
    id_span: Span,
    actions: Vec<Action>,
    lines: Vec<Held>,
    /// Whether the header holds an error.
    faulty_header: bool,
    kitchens: Vec<Span>,
    /// In order of first appearance, as the whole text's validation reports them.
    variables: IndexMap<String, Flow>,
    /// The variables of actions the catalogue cannot read, with how many times they appear
    /// there: the whole text's validation warns about none of them.
    opaque: HashMap<String, usize>,
    /// The recipe's get-kitchen error as the network stands.
    kitchen_error: Option<Diagnostic>,
}

impl NetworkSoFar {
    /// A network of no line yet after `header` (`#recipe-id`).
    pub fn new(header: &str) -> NetworkSoFar {
        let read = parse(&format!("{header}\n"));
        let (id, id_span) = read
            .file
            .recipes
            .first()
            .map_or((String::new(), Span::new(0, 0)), |r| {
                (r.id.clone(), r.id_span)
            });
        let kitchen_error = get_kitchen_count(&id, id_span, true, &[]);
        NetworkSoFar {
            id,
            id_span,
            actions: Vec::new(),
            lines: Vec::new(),
            faulty_header: read.diagnostics.has_errors(),
            kitchens: Vec::new(),
            variables: IndexMap::new(),
            opaque: HashMap::new(),
            kitchen_error,
        }
    }

    /// Add one line of the recipe's body (not a header), starting at byte `at` of the
    /// network's text, checked by `validator`.
    pub fn add(&mut self, validator: &Validator, line: &str, at: usize) -> LineChecked {
        let Parsed {
            file,
            diagnostics: mut found,
        } = parse_line(line, at);
        let predicate = file.recipes.last().and_then(|r| r.predicates.last());
        let Some(predicate) = predicate.cloned() else {
            self.lines.push(Held {
                action: false,
                error: found.has_errors(),
            });
            return LineChecked {
                predicate: None,
                diagnostics: errors_first(found),
            };
        };
        if predicate.name == "get-kitchen" {
            self.kitchens.push(predicate.span);
        }
        let roles = validator
            .catalogue()
            .get(&predicate.name)
            .filter(|s| s.arity() == predicate.args.len())
            .map(|s| s.args.iter().map(|a| a.role).collect::<Vec<Role>>());
        self.actions.push(Action {
            predicate: predicate.clone(),
            roles: roles.clone(),
        });
        let kitchen_error = self.kitchen_error();
        // The recipe's get-kitchen error is not the line's own: later lines may clear it.
        let mut not_own = 0;
        if kitchen_error != self.kitchen_error {
            not_own = usize::from(kitchen_error.as_ref().is_some_and(Diagnostic::is_error));
            found.extend(kitchen_error.clone());
        }
        self.kitchen_error = kitchen_error;
        validator.validate_predicate(&predicate, &mut found);
        self.lines.push(Held {
            action: true,
            error: found.errors() > not_own,
        });
        match &roles {
            Some(roles) => {
                self.record(&predicate, roles);
                found.extend(self.flow_warnings(&predicate, roles));
            }
            None => {
                for v in predicate.args.iter().filter_map(Arg::as_var) {
                    *self.opaque.entry(v.to_string()).or_default() += 1;
                }
            }
        }
        LineChecked {
            predicate: Some(predicate),
            diagnostics: errors_first(found),
        }
    }

    /// Whether validating the whole network as it stands finds an error (the evaluation then
    /// refuses it): one of a line's own, the header's, or the recipe's get-kitchen error.
    pub fn has_errors(&self) -> bool {
        self.lines.iter().any(|held| held.error)
            || self.faulty_header
            || self
                .kitchen_error
                .as_ref()
                .is_some_and(Diagnostic::is_error)
    }

    /// Take the last line back.
    pub fn undo(&mut self) {
        if !self.lines.pop().is_some_and(|held| held.action) {
            return;
        }
        let Some(Action { predicate, roles }) = self.actions.pop() else {
            return;
        };
        if predicate.name == "get-kitchen" {
            self.kitchens.pop();
        }
        let action = self.actions.len();
        match roles {
            Some(roles) => {
                for (arg, a) in predicate.args.iter().enumerate() {
                    let Some(flow) = a.as_var().and_then(|v| self.variables.get_mut(v)) else {
                        continue;
                    };
                    flow.occurrences -= 1;
                    flow.definite -= usize::from(is_definite(roles[arg]));
                    if flow.first_definite.is_some_and(|o| o.action == action) {
                        flow.first_definite = None;
                    }
                    if flow.first_defaulted.is_some_and(|o| o.action == action) {
                        flow.first_defaulted = None;
                    }
                }
                // The variables this line met first are the last ones, and only it used them.
                while self
                    .variables
                    .last()
                    .is_some_and(|(_, f)| f.occurrences == 0)
                {
                    self.variables.pop();
                }
            }
            None => {
                for v in predicate.args.iter().filter_map(Arg::as_var) {
                    if let Some(n) = self.opaque.get_mut(v) {
                        *n -= 1;
                        if *n == 0 {
                            self.opaque.remove(v);
                        }
                    }
                }
            }
        }
        self.kitchen_error = self.kitchen_error();
    }

    /// The variables of the actions read (each once, in no particular order).
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        let opaque = self
            .opaque
            .keys()
            .filter(|v| !self.variables.contains_key(*v));
        self.variables.keys().chain(opaque).map(String::as_str)
    }

    fn kitchen_error(&self) -> Option<Diagnostic> {
        let empty = self.actions.is_empty();
        get_kitchen_count(&self.id, self.id_span, empty, &self.kitchens)
    }

    /// The occurrences of the variables of the last action, whose arguments have `roles`.
    fn record(&mut self, predicate: &Predicate, roles: &[Role]) {
        let action = self.actions.len() - 1;
        for (arg, (a, &role)) in predicate.args.iter().zip(roles).enumerate() {
            let Some(v) = a.as_var() else { continue };
            let flow = self.variables.entry(v.to_string()).or_default();
            let here = Occurrence { action, arg, role };
            flow.occurrences += 1;
            if is_definite(role) {
                flow.definite += 1;
                flow.first_definite.get_or_insert(here);
            } else if role.can_produce() {
                flow.first_defaulted.get_or_insert(here);
            }
        }
    }

    /// The data-flow warnings at the last action, `predicate` with `roles`, in the order the
    /// whole text's validation gives them: by variable in order of first appearance.
    fn flow_warnings(&self, predicate: &Predicate, roles: &[Role]) -> Vec<Diagnostic> {
        let action = self.actions.len() - 1;
        let span = |arg: usize| predicate.arg_spans.get(arg).unwrap_or(predicate.span);
        // This line's occurrences, by variable in order of first appearance, then position.
        let mut here: Vec<(usize, usize, &str)> = predicate
            .args
            .iter()
            .enumerate()
            .filter_map(|(arg, a)| {
                let v = a.as_var()?;
                Some((self.variables.get_index_of(v)?, arg, v))
            })
            .collect();
        here.sort_unstable();
        // The action ends the kitchen-state chain when nothing uses the state it makes.
        let ends_chain = here.iter().any(|&(_, arg, v)| {
            let flow = &self.variables[v];
            flow.occurrences == 1
                && flow.producer()
                    == Some(Occurrence {
                        action,
                        arg,
                        role: roles[arg],
                    })
                && roles[arg] == Role::KitchenStateOut
        });
        let mut warnings = Vec::new();
        for group in here.chunk_by(|a, b| a.0 == b.0) {
            let name = group[0].2;
            if self.opaque.contains_key(name) {
                continue;
            }
            let flow = &self.variables[name];
            let definite_here: Vec<usize> = group
                .iter()
                .map(|&(_, arg, _)| arg)
                .filter(|&arg| is_definite(roles[arg]))
                .collect();
            let before = flow.definite - definite_here.len();
            if before < 2 && flow.definite >= 2 {
                let first = match flow.first_definite {
                    Some(o) if before == 1 => &self.actions[o.action].predicate.name,
                    _ => &predicate.name,
                };
                let second = span(definite_here[1 - before]);
                warnings.push(multiple_producers(name, first, &predicate.name, second));
            }
            match flow.producer() {
                Some(p) => {
                    if p.action == action
                        && p.arg == 0
                        && p.role == Role::Output
                        && flow.occurrences == 1
                        && !ends_chain
                    {
                        warnings.push(unused_output(name, span(0)));
                    }
                }
                None => {
                    for &(_, arg, _) in group {
                        warnings.push(unproduced(name, roles[arg], span(arg)));
                    }
                }
            }
        }
        warnings
    }
}

/// Errors, then warnings, each in the order found.
fn errors_first(found: Diagnostics) -> Vec<Diagnostic> {
    let (mut errors, warnings): (Vec<_>, Vec<_>) = found
        .into_kept()
        .into_iter()
        .partition(Diagnostic::is_error);
    errors.extend(warnings);
    errors
}
