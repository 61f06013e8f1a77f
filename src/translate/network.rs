//! Writing a network action by action: fresh variable names and the kitchen state threaded
//! from each action to the next.

use std::collections::HashMap;

/// One action: `(primitive outputs… ks-out ks-in inputs…)`.
#[derive(Clone, Debug)]
struct Action {
    primitive: String,
    outputs: Vec<String>,
    /// Kitchen states out and in (none for `get-kitchen`, whose output is in `outputs`).
    kitchen: Option<(String, String)>,
    inputs: Vec<String>,
}

/// A network under construction.
pub struct NetworkBuilder {
    actions: Vec<Action>,
    taken: HashMap<String, usize>,
    /// The latest kitchen state.
    pub kitchen: String,
}

impl Default for NetworkBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl NetworkBuilder {
    /// A network starting with `(get-kitchen ?kitchen)`.
    pub fn new() -> NetworkBuilder {
        let mut b = NetworkBuilder {
            actions: Vec::new(),
            taken: HashMap::new(),
            kitchen: String::new(),
        };
        let k = b.fresh("kitchen");
        b.actions.push(Action {
            primitive: "get-kitchen".into(),
            outputs: vec![k.clone()],
            kitchen: None,
            inputs: Vec::new(),
        });
        b.kitchen = k;
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

    /// An action laid out as most primitives are: its outputs (fresh variables named after
    /// `outputs`), the new kitchen state, the current one, then `inputs` (constants, bound
    /// variables or fresh ones for defaults). Returns the output variables.
    pub fn act(&mut self, primitive: &str, outputs: &[&str], inputs: &[String]) -> Vec<String> {
        let outs: Vec<String> = outputs.iter().map(|o| self.fresh(o)).collect();
        let ks = self.fresh("ks");
        self.actions.push(Action {
            primitive: primitive.into(),
            outputs: outs.clone(),
            kitchen: Some((ks.clone(), self.kitchen.clone())),
            inputs: inputs.to_vec(),
        });
        self.kitchen = ks;
        outs
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
        let mut words = vec![a.primitive.clone()];
        words.extend(a.outputs.iter().cloned());
        if let Some((out, inp)) = &a.kitchen {
            words.extend([out.clone(), inp.clone()]);
        }
        words.extend(a.inputs.iter().cloned());
        format!("({})", words.join(" "))
    }

    /// Take action `i` out of the network (the simulator cannot run it), wiring what came
    /// after it to what went in: its kitchen state out becomes its kitchen state in, its
    /// first output becomes its first input that an earlier action produced.
    pub fn remove(&mut self, i: usize) {
        let Some((ks_out, ks_in)) = self.actions[i].kitchen.clone() else {
            return;
        };
        let produced = |v: &str| self.actions[..i].iter().any(|a| a.produces(v));
        let carried = self.actions[i].inputs.iter().find(|v| produced(v)).cloned();
        let output = self.actions[i].outputs.first().cloned();
        self.actions.remove(i);
        let mut renames = vec![(ks_out, ks_in)];
        if let (Some(out), Some(inp)) = (output, carried) {
            renames.push((out, inp));
        }
        for (from, to) in renames {
            for a in &mut self.actions[i..] {
                for v in a
                    .inputs
                    .iter_mut()
                    .chain(a.kitchen.iter_mut().map(|k| &mut k.1))
                {
                    if *v == from {
                        v.clone_from(&to);
                    }
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
    fn produces(&self, v: &str) -> bool {
        self.outputs.iter().any(|o| o == v) || self.kitchen.as_ref().is_some_and(|k| k.0 == v)
    }
}
