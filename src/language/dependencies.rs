//! The dependency graph of one recipe: a node per action (predicate), an edge from the action
//! that produces a variable to every action that consumes it.
//!
//! Roles come from the primitive catalogue. A variable's producer is the first action (in file
//! order) that has it in an always-produced position (output, kitchen-state out); failing that,
//! the first that has it in a defaulted position. Every other occurrence is a use. Predicates
//! whose primitive or arity is unknown take no part in the flow.

use super::ast::Recipe;
use crate::data::catalogue::{Catalogue, Role};
use indexmap::IndexMap;
use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt::Write;

/// One occurrence of a variable in an argument position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// Index of the predicate in the recipe.
    pub action: usize,
    /// Index of the argument in the predicate.
    pub arg: usize,
    pub role: Role,
}

/// The flow of one variable through a recipe.
#[derive(Clone, Debug, Default)]
pub struct VariableFlow {
    /// All occurrences, in file order.
    pub occurrences: Vec<Occurrence>,
    /// The chosen producer (an index into `occurrences`), if any position can produce it.
    pub producer: Option<usize>,
}

impl VariableFlow {
    pub fn producer(&self) -> Option<Occurrence> {
        self.producer.map(|i| self.occurrences[i])
    }

    /// Occurrences in always-produced positions (more than one is suspicious).
    pub fn definite_producers(&self) -> impl Iterator<Item = &Occurrence> {
        self.occurrences
            .iter()
            .filter(|o| matches!(o.role, Role::Output | Role::KitchenStateOut))
    }

    /// Occurrences other than the producer.
    pub fn uses(&self) -> impl Iterator<Item = &Occurrence> {
        let p = self.producer;
        self.occurrences
            .iter()
            .enumerate()
            .filter(move |(i, _)| Some(*i) != p)
            .map(|(_, o)| o)
    }
}

/// The dependency graph of a recipe. Node weights are predicate indices; edge weights are the
/// variable that flows along the edge.
#[derive(Clone, Debug)]
pub struct Network {
    pub graph: DiGraph<usize, String>,
    /// Variables in order of first appearance.
    pub variables: IndexMap<String, VariableFlow>,
    /// Whether the predicate's primitive (with that arity) is known to the catalogue.
    pub known: Vec<bool>,
}

impl Network {
    pub fn build(recipe: &Recipe, catalogue: &Catalogue) -> Network {
        let mut graph = DiGraph::with_capacity(recipe.predicates.len(), recipe.predicates.len());
        let mut variables: IndexMap<String, VariableFlow> = IndexMap::new();
        let mut known = Vec::with_capacity(recipe.predicates.len());
        for (action, p) in recipe.predicates.iter().enumerate() {
            graph.add_node(action);
            let sig = catalogue.get(&p.name).filter(|s| s.arity() == p.args.len());
            known.push(sig.is_some());
            let Some(sig) = sig else { continue };
            for (arg, (a, spec)) in p.args.iter().zip(&sig.args).enumerate() {
                if let Some(v) = a.as_var() {
                    let flow = variables.entry(v.to_string()).or_default();
                    flow.occurrences.push(Occurrence {
                        action,
                        arg,
                        role: spec.role,
                    });
                }
            }
        }
        for flow in variables.values_mut() {
            flow.producer = flow
                .occurrences
                .iter()
                .position(|o| matches!(o.role, Role::Output | Role::KitchenStateOut))
                .or_else(|| flow.occurrences.iter().position(|o| o.role.can_produce()));
        }
        for (name, flow) in &variables {
            let Some(from) = flow.producer() else {
                continue;
            };
            for to in flow.uses() {
                if to.action != from.action {
                    graph.add_edge(
                        NodeIndex::new(from.action),
                        NodeIndex::new(to.action),
                        name.clone(),
                    );
                }
            }
        }
        Network {
            graph,
            variables,
            known,
        }
    }

    /// Actions in dependency order, ties broken by file order; `None` if there is a cycle.
    pub fn topological_order(&self) -> Option<Vec<usize>> {
        let n = self.graph.node_count();
        let mut indegree = vec![0usize; n];
        for e in self.graph.raw_edges() {
            indegree[e.target().index()] += 1;
        }
        let mut ready: BinaryHeap<Reverse<usize>> =
            (0..n).filter(|&i| indegree[i] == 0).map(Reverse).collect();
        let mut order = Vec::with_capacity(n);
        while let Some(Reverse(i)) = ready.pop() {
            order.push(i);
            for next in self.graph.neighbors(NodeIndex::new(i)) {
                let j = next.index();
                indegree[j] -= 1;
                if indegree[j] == 0 {
                    ready.push(Reverse(j));
                }
            }
        }
        (order.len() == n).then_some(order)
    }

    /// Each dependency cycle as the sorted predicate indices taking part in it. Kosaraju's
    /// algorithm: petgraph's is iterative, its Tarjan recurses once per action in a chain.
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        let mut cycles: Vec<Vec<usize>> = kosaraju_scc(&self.graph)
            .into_iter()
            .filter(|scc| scc.len() > 1)
            .map(|scc| {
                let mut v: Vec<usize> = scc.iter().map(|n| n.index()).collect();
                v.sort_unstable();
                v
            })
            .collect();
        cycles.sort();
        cycles
    }

    /// Graphviz DOT: node labels are the predicates, edge labels the variables.
    pub fn to_dot(&self, recipe: &Recipe) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "digraph {} {{", dot_string(&recipe.id));
        let _ = writeln!(out, "  node [shape=box, fontname=\"monospace\"];");
        for (i, p) in recipe.predicates.iter().enumerate() {
            let _ = writeln!(out, "  n{i} [label={}];", dot_string(&p.to_string()));
        }
        let mut edges: Vec<(usize, usize, &str)> = self
            .graph
            .raw_edges()
            .iter()
            .map(|e| (e.source().index(), e.target().index(), e.weight.as_str()))
            .collect();
        edges.sort_unstable();
        for (from, to, var) in edges {
            let _ = writeln!(
                out,
                "  n{from} -> n{to} [label={}];",
                dot_string(&format!("?{var}"))
            );
        }
        out.push_str("}\n");
        out
    }
}

fn dot_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}
