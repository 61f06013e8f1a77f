//! Checks of a parsed file against a profile's primitive catalogue and the ontology.
//!
//! Errors are exactly what the reference refuses (`solution-format.md` §4–§6): the whole file is
//! then rejected. Warnings flag networks the reference accepts but that will not execute as
//! meant (broken data flow), so a researcher learns it before a long simulation run.

use crate::base::number::Number;
use crate::base::profile::Profile;
use crate::base::suggest::closest;
use crate::data::catalogue::{Catalogue, PrimitiveSig, Role};
use crate::language::ast::{Arg, Predicate, Recipe, SolutionFile, Span};
use crate::language::dependencies::Network;
use crate::language::diagnostic::{Diagnostic, DiagnosticKind, Diagnostics};
use crate::language::parse::parse_into;
use num_rational::Rational64;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// What validation needs to know about the ontology's classes (names are lower case).
pub trait ClassLookup {
    fn class_exists(&self, name: &str) -> bool;
    /// Whether `class` is `ancestor` or a subclass of it; every class is a `t`.
    fn is_a(&self, class: &str, ancestor: &str) -> bool;
    /// Whether the class can be instantiated as a concept (a constant in a network).
    fn is_conceptualizable(&self, class: &str) -> bool;
    fn class_names(&self) -> Vec<&str>;
}

pub mod bounds;
pub mod so_far;

/// A number constant becomes an instance of this class.
const QUANTITY: &str = "quantity";
/// A list constant becomes an instance of this class.
const LIST_CLASS: &str = "list-of-kitchen-entities";

pub struct Validator<'a> {
    catalogue: &'a Catalogue,
    /// The other profile's catalogue, to recognise a network written for it.
    other: &'a Catalogue,
    classes: Option<&'a dyn ClassLookup>,
    known_recipes: Option<&'a [&'a str]>,
    /// The did-you-mean hint of each unknown class name met so far: a file may repeat one
    /// unknown word thousands of times, and each suggestion measures it against the ontology.
    class_hints: RefCell<HashMap<String, Vec<String>>>,
}

impl<'a> Validator<'a> {
    /// A validator for a profile, without class checks and without a list of known recipes.
    pub fn new(profile: Profile) -> Self {
        let other = Profile::ALL
            .into_iter()
            .find(|p| *p != profile)
            .unwrap_or(profile);
        Self::with_catalogues(Catalogue::shared(profile), Catalogue::shared(other))
    }

    /// A validator over catalogues already read, the profile's and the other profile's (to
    /// recognise a network written for it), borrowed: reading or copying them was most of the
    /// cost of validating a short network, which an agent's session does at every line and
    /// every evaluation at its start.
    pub fn with_catalogues(catalogue: &'a Catalogue, other: &'a Catalogue) -> Self {
        Validator {
            catalogue,
            other,
            classes: None,
            known_recipes: None,
            class_hints: RefCell::default(),
        }
    }

    pub fn with_classes(mut self, classes: &'a dyn ClassLookup) -> Self {
        self.classes = Some(classes);
        self
    }

    /// Check primitives against this catalogue (the profile's own with primitives added).
    pub fn with_catalogue(mut self, catalogue: &'a Catalogue) -> Self {
        self.catalogue = catalogue;
        self
    }

    pub fn with_known_recipes(mut self, ids: &'a [&'a str]) -> Self {
        self.known_recipes = Some(ids);
        self
    }

    pub fn catalogue(&self) -> &Catalogue {
        self.catalogue
    }

    /// Every recipe, then the file-level checks (unknown and duplicate recipe ids).
    pub fn validate(&self, file: &SolutionFile) -> Diagnostics {
        let mut out = Diagnostics::new();
        self.validate_into(file, &mut out);
        out
    }

    /// [`Validator::validate`], collected into `out` (which keeps those its caller shows).
    pub fn validate_into(&self, file: &SolutionFile, out: &mut Diagnostics) {
        for r in &file.recipes {
            self.validate_recipe(r, out);
        }
        let mut first_seen: HashMap<&str, Span> = HashMap::new();
        for r in &file.recipes {
            if r.id.is_empty() {
                continue; // the header itself was reported while parsing
            }
            if let Some(known) = self.known_recipes
                && !known.contains(&r.id.as_str())
            {
                let d = Diagnostic::new(
                    DiagnosticKind::UnknownRecipe,
                    r.id_span,
                    format!("recipe `{}` is not supported by the benchmark", r.id),
                );
                let close = closest(&r.id, known.iter().copied(), 3);
                out.push(d.suggesting(&close));
            }
            if let Some(first) = first_seen.get(r.id.as_str()) {
                out.push(
                    Diagnostic::new(
                        DiagnosticKind::DuplicateRecipe,
                        r.id_span,
                        format!("recipe `{}` appears twice in the file", r.id),
                    )
                    .with_hint(format!(
                        "its first solution starts at byte {}; keep one solution per recipe",
                        first.start
                    )),
                );
            } else {
                first_seen.insert(&r.id, r.id_span);
            }
        }
    }

    /// The reference's per-recipe checks (errors) and data-flow warnings.
    fn validate_recipe(&self, recipe: &Recipe, out: &mut Diagnostics) {
        let kitchens: Vec<Span> = recipe
            .predicates
            .iter()
            .filter(|p| p.name == "get-kitchen")
            .map(|p| p.span)
            .collect();
        let empty = recipe.predicates.is_empty();
        out.extend(get_kitchen_count(
            &recipe.id,
            recipe.id_span,
            empty,
            &kitchens,
        ));
        for p in &recipe.predicates {
            self.validate_predicate(p, out);
        }
        self.flow_warnings(recipe, out);
    }

    /// The checks of one action on its own: its arguments, its primitive and their types.
    fn validate_predicate(&self, p: &Predicate, out: &mut Diagnostics) {
        check_duplicate_arguments(p, out);
        let sig = self.check_primitive(p, out);
        self.check_arguments(p, sig, out);
    }

    /// The primitive's signature when the name and arity are right.
    fn check_primitive(&self, p: &Predicate, out: &mut Diagnostics) -> Option<&PrimitiveSig> {
        let profile = self.catalogue.profile;
        let Some(sig) = self.catalogue.get(&p.name) else {
            let mut d = Diagnostic::new(
                DiagnosticKind::UnknownPrimitive,
                p.name_span,
                format!("unknown primitive `{}`", p.name),
            );
            if self.other.get(&p.name).is_some() {
                d = d.with_hint(format!(
                    "`{}` exists only in profile {}; this looks like a network for that profile",
                    p.name, self.other.profile
                ));
            } else {
                let close = closest(&p.name, self.catalogue.iter().map(|s| s.name.as_str()), 3);
                d = d.suggesting(&close);
            }
            out.push(d);
            return None;
        };
        if sig.arity() == p.args.len() {
            return Some(sig);
        }
        let span = if p.args.len() > sig.arity() {
            let from = p
                .arg_spans
                .get(sig.arity())
                .map_or(p.span.start, |s| s.start);
            Span::new(from, p.arg_spans.last().map_or(p.span.end, |s| s.end))
        } else {
            p.span
        };
        let mut d = Diagnostic::new(
            DiagnosticKind::WrongArity,
            span,
            format!(
                "`{}` takes {} arguments in profile {profile}, found {}",
                p.name,
                sig.arity(),
                p.args.len()
            ),
        );
        let other = self
            .other
            .get(&p.name)
            .filter(|o| o.arity() == p.args.len());
        d = match other {
            Some(_) => d.with_hint(format!(
                "`{}` takes {} arguments in profile {}: this looks like a network for profile {} (use --reference {})",
                p.name,
                p.args.len(),
                self.other.profile,
                self.other.profile,
                self.other.profile
            )),
            None => d.with_hint(format!(
                "the arguments are: {}",
                sig.args.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(" ")
            )),
        };
        out.push(d);
        None
    }

    fn check_arguments(&self, p: &Predicate, sig: Option<&PrimitiveSig>, out: &mut Diagnostics) {
        for (i, a) in p.args.iter().enumerate() {
            let span = p.arg_spans.get(i).unwrap_or(p.span);
            let declared = sig.and_then(|s| s.args.get(i));
            if let (Arg::Num(n), Some(d)) = (a, declared)
                && d.ty == QUANTITY
                && let Some(why) = bounds::violation(p, i, n)
            {
                out.push(
                    Diagnostic::new(DiagnosticKind::QuantityOutOfBounds, span, why)
                        .with_hint(bounds::HINT),
                );
                continue;
            }
            let class = match a {
                Arg::Var(_) => continue,
                Arg::Str(s) => {
                    out.push(
                        Diagnostic::new(
                            DiagnosticKind::StringArgument,
                            span,
                            format!("a string {s:?} is not a valid argument"),
                        )
                        .with_hint("arguments are variables (?x), numbers, or ontology class names without quotes"),
                    );
                    continue;
                }
                Arg::Num(_) => QUANTITY,
                Arg::List(_) => LIST_CLASS,
                Arg::Sym(s) => s,
            };
            let Some(classes) = self.classes else {
                continue;
            };
            if let Arg::Sym(s) = a {
                if !classes.class_exists(s) {
                    let d = Diagnostic::new(
                        DiagnosticKind::UnknownClass,
                        span,
                        format!("`{s}` is not a class of the ontology"),
                    );
                    let close = self
                        .class_hints
                        .borrow_mut()
                        .entry(s.to_string())
                        .or_insert_with(|| {
                            let names = classes.class_names();
                            closest(s, names.iter().copied(), 3)
                                .into_iter()
                                .map(str::to_string)
                                .collect()
                        })
                        .clone();
                    let close: Vec<&str> = close.iter().map(String::as_str).collect();
                    out.push(d.suggesting(&close));
                    continue;
                }
                if !classes.is_conceptualizable(s) {
                    out.push(
                        Diagnostic::new(
                            DiagnosticKind::NotConceptualizable,
                            span,
                            format!("`{s}` cannot be used as a constant (it is not a concept)"),
                        )
                        .with_hint(
                            "use a variable here and let an action or the kitchen provide it",
                        ),
                    );
                    continue;
                }
            }
            let Some(declared) = declared else { continue };
            if declared.ty != "t" && !classes.is_a(class, &declared.ty) {
                let what = match a {
                    Arg::Num(_) => format!("the number {a} (a quantity)"),
                    Arg::List(_) => format!("the list {a}"),
                    _ => format!("`{a}`"),
                };
                out.push(
                    Diagnostic::new(
                        DiagnosticKind::TypeMismatch,
                        span,
                        format!(
                            "argument {} of `{}` ({}) must be a {}, found {what}",
                            i + 1,
                            p.name,
                            declared.name,
                            declared.ty
                        ),
                    )
                    .with_hint("check the argument order against the primitive's signature"),
                );
            }
        }
    }

    fn flow_warnings(&self, recipe: &Recipe, out: &mut Diagnostics) {
        let net = Network::build(recipe, self.catalogue);
        let arg_span = |action: usize, arg: usize| {
            let p = &recipe.predicates[action];
            p.arg_spans.get(arg).unwrap_or(p.span)
        };
        // The end of the kitchen-state chain: actions whose kitchen-state output nobody uses.
        let mut final_actions = HashSet::new();
        for flow in net.variables.values() {
            if let Some(p) = flow.producer()
                && p.role == Role::KitchenStateOut
                && flow.uses().next().is_none()
            {
                final_actions.insert(p.action);
            }
        }
        // Variables of predicates that could not be read against the catalogue: their flow is
        // unknown, so warning about it would only echo the error.
        let opaque: HashSet<&str> = recipe
            .predicates
            .iter()
            .zip(&net.known)
            .filter(|(_, known)| !**known)
            .flat_map(|(p, _)| p.args.iter().filter_map(Arg::as_var))
            .collect();
        for (name, flow) in &net.variables {
            if opaque.contains(name.as_str()) {
                continue;
            }
            let definite: Vec<_> = flow.definite_producers().collect();
            if let [first, second, ..] = definite.as_slice() {
                out.push(multiple_producers(
                    name,
                    &recipe.predicates[first.action].name,
                    &recipe.predicates[second.action].name,
                    arg_span(second.action, second.arg),
                ));
            }
            match flow.producer() {
                Some(p) => {
                    if p.arg == 0
                        && p.role == Role::Output
                        && flow.uses().next().is_none()
                        && !final_actions.contains(&p.action)
                    {
                        out.push(unused_output(name, arg_span(p.action, p.arg)));
                    }
                }
                None => {
                    for o in &flow.occurrences {
                        out.push(unproduced(name, o.role, arg_span(o.action, o.arg)));
                    }
                }
            }
        }
        for cycle in net.cycles() {
            let names: Vec<&str> = cycle
                .iter()
                .map(|&i| recipe.predicates[i].name.as_str())
                .collect();
            out.push(
                Diagnostic::new(
                    DiagnosticKind::DependencyCycle,
                    recipe.predicates[cycle[0]].span,
                    format!(
                        "these actions depend on each other in a cycle: {}",
                        names.join(" → ")
                    ),
                )
                .with_hint("an action cannot use, even indirectly, a variable it produces"),
            );
        }
    }
}

/// Parse and validate a text: what it read, for a caller that goes on with it (`check` runs
/// it in the kitchen), and its diagnostics in text order (place, severity, kind), the first
/// [`MAX_RENDERED`](crate::language::diagnostic::MAX_RENDERED) kept and the rest counted.
pub fn check(text: &str, validator: &Validator) -> (SolutionFile, Diagnostics) {
    read_checked(text, validator, Diagnostics::new().in_text_order())
}

/// Parse and validate a text: what it read and its diagnostics, collected into `into` (which
/// keeps those its caller shows: the evaluation keeps the first errors found).
pub fn read_checked(
    text: &str,
    validator: &Validator,
    into: Diagnostics,
) -> (SolutionFile, Diagnostics) {
    let mut parsed = parse_into(text, into);
    validator.validate_into(&parsed.file, &mut parsed.diagnostics);
    (parsed.file, parsed.diagnostics)
}

/// Warning: `name` is bound by two actions, `second` (at `span`) after `first`.
fn multiple_producers(name: &str, first: &str, second: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        DiagnosticKind::MultipleProducers,
        span,
        format!("?{name} is produced by both `{first}` and `{second}`"),
    )
    .with_hint("give each action's output its own variable")
}

/// Warning: the output `name` at `span` is used by no action.
fn unused_output(name: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        DiagnosticKind::UnusedOutput,
        span,
        format!("the output ?{name} is never used"),
    )
    .with_hint("use it in a later action, or remove the action")
}

/// Warning: no action produces `name`, used at `span` in a position of `role`.
fn unproduced(name: &str, role: Role, span: Span) -> Diagnostic {
    let (kind, message, hint) = match role {
        Role::KitchenStateIn => (
            DiagnosticKind::BrokenKitchenStateChain,
            format!("the kitchen state ?{name} is produced by no action"),
            "use the kitchen-state output of the previous action (or of get-kitchen)",
        ),
        _ => (
            DiagnosticKind::UnboundInput,
            format!("the input ?{name} is produced by no action and has no default"),
            "bind it with an earlier action's output, or write a constant",
        ),
    };
    Diagnostic::new(kind, span, message).with_hint(hint)
}

/// The error of a recipe without exactly one get-kitchen: its id and the span of its id, whether
/// it has no action, and where its get-kitchen actions are.
fn get_kitchen_count(
    id: &str,
    id_span: Span,
    empty: bool,
    kitchens: &[Span],
) -> Option<Diagnostic> {
    let (span, message, hint) = match kitchens {
        [_] => return None,
        [] if empty => (
            id_span,
            format!("recipe `{id}` is empty: it needs exactly one get-kitchen, found 0"),
            "add the recipe's predicates, starting with `(get-kitchen ?kitchen)`",
        ),
        [] => (
            id_span,
            format!("recipe `{id}` needs exactly one get-kitchen, found 0"),
            "add `(get-kitchen ?kitchen)` and use ?kitchen as the first kitchen state",
        ),
        [_, second, ..] => (
            *second,
            format!(
                "recipe `{id}` needs exactly one get-kitchen, found {}",
                kitchens.len()
            ),
            "keep a single get-kitchen and chain the kitchen states from it",
        ),
    };
    Some(Diagnostic::new(DiagnosticKind::GetKitchenCount, span, message).with_hint(hint))
}

/// How Lisp `eql` sees an argument; `None` for values that are never `eql` to another.
#[derive(PartialEq, Eq, Hash)]
enum EqlKey<'a> {
    Symbol(&'a str),
    Variable(&'a str),
    Exact(Rational64),
    /// Floats are `eql` when their bits are equal (so 0.0 and -0.0 differ).
    Float(u32),
    /// `()` and `nil` are the same symbol.
    Nil,
}

fn eql_key(a: &Arg) -> Option<EqlKey<'_>> {
    match a {
        Arg::Var(v) => Some(EqlKey::Variable(v)),
        Arg::Sym(s) => Some(EqlKey::Symbol(s)),
        Arg::Num(Number::Exact(r)) => Some(EqlKey::Exact(*r)),
        Arg::Num(Number::Float(f)) => Some(EqlKey::Float(f.to_bits())),
        Arg::List(items) if items.is_empty() => Some(EqlKey::Nil),
        Arg::List(_) | Arg::Str(_) => None,
    }
}

fn check_duplicate_arguments(p: &Predicate, out: &mut Diagnostics) {
    let mut seen = HashSet::new();
    let mut reported = HashSet::new();
    for (i, a) in p.args.iter().enumerate() {
        let Some(key) = eql_key(a) else { continue };
        if seen.contains(&key) {
            if reported.insert(i) {
                let span = p.arg_spans.get(i).unwrap_or(p.span);
                out.push(
                    Diagnostic::new(
                        DiagnosticKind::DuplicateArgument,
                        span,
                        format!("`{a}` appears twice in this `{}`", p.name),
                    )
                    .with_hint(match a {
                        Arg::Var(_) => "every argument position needs its own variable",
                        _ => "the reference refuses repeated constants too; write one of them as a variable or change it",
                    }),
                );
            }
        } else {
            seen.insert(key);
        }
    }
}
