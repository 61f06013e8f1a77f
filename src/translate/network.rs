//! Writing a network action by action: each action laid out as the profile's primitive
//! catalogue lays out its primitive, fresh variable names, and the kitchen state threaded from
//! each action to the next.

use super::forms::Form;
use crate::base::profile::Profile;
use crate::data::catalogue::{Catalogue, Role};
use std::collections::HashMap;

/// What an argument of a written action is to the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// A variable the action makes.
    Output,
    KitchenOut,
    KitchenIn,
    /// A constant, a variable made earlier, or a fresh one for a default.
    Input,
}

/// One action: its primitive and its arguments in the catalogue's order.
#[derive(Clone, Debug)]
struct Action {
    primitive: String,
    args: Vec<(Slot, String)>,
}

/// A network under construction.
pub struct NetworkBuilder {
    catalogue: &'static Catalogue,
    actions: Vec<Action>,
    taken: HashMap<String, usize>,
    /// The latest kitchen state.
    pub kitchen: String,
}

impl NetworkBuilder {
    /// A network in the forms of `profile`, starting with `(get-kitchen ?kitchen)`.
    pub fn new(profile: Profile) -> NetworkBuilder {
        let mut b = NetworkBuilder {
            catalogue: Catalogue::shared(profile),
            actions: Vec::new(),
            taken: HashMap::new(),
            kitchen: String::new(),
        };
        b.act(Form::GetKitchen, &[], &[]);
        b
    }

    /// A variable never used before: `?base`, then `?base-2`, `?base-3`…
    pub fn fresh(&mut self, base: &str) -> String {
        let n = self.taken.entry(base.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 {
            format!("?{base}")
        } else {
            format!("?{base}-{n}")
        }
    }

    /// Write `form` with `values` for the arguments it binds, in the catalogue's order: outputs
    /// as fresh variables named after `outputs` (else after the argument), the new kitchen state,
    /// the current one, the values, and a fresh variable, named after the argument, for every
    /// other input, which the kitchen's default fills. Returns the output variables.
    ///
    /// A value for an argument the primitive lacks (or every value, for a primitive the
    /// catalogue lacks) is written after the arguments, where the validator reports it.
    pub fn act(&mut self, form: Form, outputs: &[&str], values: &[String]) -> Vec<String> {
        debug_assert_eq!(values.len(), form.bound().len(), "{form:?}");
        let mut args = Vec::new();
        let mut made = Vec::new();
        let mut placed = vec![false; values.len()];
        if let Some(sig) = self.catalogue.get(form.primitive()) {
            let positions = form.positions(sig);
            let mut names = outputs.iter();
            for (i, arg) in sig.args.iter().enumerate() {
                let given = positions.iter().position(|p| *p == Some(i));
                let slot = match arg.role {
                    Role::Output => Slot::Output,
                    Role::KitchenStateOut => Slot::KitchenOut,
                    Role::KitchenStateIn => Slot::KitchenIn,
                    Role::Input | Role::Optional => Slot::Input,
                };
                let word = match (slot, given) {
                    (Slot::Output, _) => {
                        let v = self.fresh(names.next().copied().unwrap_or(&arg.name));
                        made.push(v.clone());
                        v
                    }
                    // The first kitchen state is the kitchen.
                    (Slot::KitchenOut, _) if self.actions.is_empty() => self.fresh("kitchen"),
                    (Slot::KitchenOut, _) => self.fresh("ks"),
                    (Slot::KitchenIn, _) => self.kitchen.clone(),
                    (Slot::Input, Some(j)) => {
                        placed[j] = true;
                        values[j].clone()
                    }
                    (Slot::Input, None) => self.fresh(&arg.name),
                };
                args.push((slot, word));
            }
        }
        let unplaced = values.iter().zip(&placed).filter(|(_, p)| !**p);
        args.extend(unplaced.map(|(v, _)| (Slot::Input, v.clone())));
        if let Some((_, ks)) = args.iter().find(|(s, _)| *s == Slot::KitchenOut) {
            self.kitchen = ks.clone();
        }
        self.actions.push(Action {
            primitive: form.primitive().into(),
            args,
        });
        made
    }

    pub fn len(&self) -> usize {
        self.actions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The text of action `i`.
    pub fn action_text(&self, i: usize) -> String {
        let a = &self.actions[i];
        let mut words = vec![a.primitive.as_str()];
        words.extend(a.args.iter().map(|(_, w)| w.as_str()));
        format!("({})", words.join(" "))
    }

    /// Take action `i` out of the network (the simulator cannot run it), wiring what came
    /// after it to what went in: its kitchen state out becomes its kitchen state in, its
    /// first output becomes its first input that an earlier action produced.
    pub fn remove(&mut self, i: usize) {
        let (Some(ks_out), Some(ks_in)) = (
            self.actions[i].first(Slot::KitchenOut),
            self.actions[i].first(Slot::KitchenIn),
        ) else {
            return;
        };
        let produced = |v: &str| self.actions[..i].iter().any(|a| a.produces(v));
        let carried = self.actions[i]
            .args
            .iter()
            .find(|(s, v)| *s == Slot::Input && produced(v))
            .map(|(_, v)| v.clone());
        let output = self.actions[i].first(Slot::Output);
        self.actions.remove(i);
        let mut renames = vec![(ks_out, ks_in)];
        if let (Some(out), Some(inp)) = (output, carried) {
            renames.push((out, inp));
        }
        for (from, to) in renames {
            for a in &mut self.actions[i..] {
                for (_, v) in a
                    .args
                    .iter_mut()
                    .filter(|(s, v)| matches!(s, Slot::Input | Slot::KitchenIn) && *v == from)
                {
                    v.clone_from(&to);
                }
            }
            if self.kitchen == from {
                self.kitchen = to;
            }
        }
    }

    /// The network as a `.solution` entry with its `#id` header.
    pub fn solution(&self, id: &str) -> String {
        let mut out = format!("#{id}\n");
        for i in 0..self.actions.len() {
            out.push_str(&self.action_text(i));
            out.push('\n');
        }
        out
    }
}

impl Action {
    /// The first argument in `slot`.
    fn first(&self, slot: Slot) -> Option<String> {
        self.args
            .iter()
            .find(|(s, _)| *s == slot)
            .map(|(_, v)| v.clone())
    }

    fn produces(&self, v: &str) -> bool {
        self.args
            .iter()
            .any(|(s, w)| matches!(s, Slot::Output | Slot::KitchenOut) && w == v)
    }
}
