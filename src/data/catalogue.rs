//! The primitive catalogue: every primitive's arguments, their types and the argument patterns
//! ("cases") under which it can run. Loaded from `kitchens/primitives.json`, per profile.
//!
//! The reference runs a primitive only when the set of bound arguments is exactly the input set
//! of one of its cases; everything else about an argument's role is derived from the cases.

use crate::base::profile::Profile;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The role of an argument, derived from the cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Never bound on entry: the primitive always produces it (the first argument is the
    /// primary output).
    Output,
    /// The kitchen state the primitive produces.
    KitchenStateOut,
    /// The kitchen state the primitive consumes.
    KitchenStateIn,
    /// Bound on entry in every case.
    Input,
    /// Input in some cases, produced with a default in others (a tool, a unit, a container ...).
    Optional,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Output => "output",
            Role::KitchenStateOut => "kitchen-state-out",
            Role::KitchenStateIn => "kitchen-state-in",
            Role::Input => "input",
            Role::Optional => "optional input (defaulted)",
        }
    }

    /// Whether a variable in this position is bound by this primitive in at least one case.
    pub fn can_produce(self) -> bool {
        matches!(self, Role::Output | Role::KitchenStateOut | Role::Optional)
    }
}

#[derive(Clone, Debug)]
pub struct ArgSig {
    pub name: String,
    /// The ontology class an argument's value must be an instance of (`t` = anything).
    pub ty: String,
    pub role: Role,
}

/// One executable argument pattern: bit `i` set = argument `i` must be bound on entry; all
/// others must be unbound and are produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    pub inputs: u64,
}

impl Case {
    pub fn is_input(self, arg: usize) -> bool {
        self.inputs & (1 << arg) != 0
    }
}

#[derive(Clone, Debug)]
pub struct PrimitiveSig {
    pub name: String,
    pub args: Vec<ArgSig>,
    pub cases: Vec<Case>,
}

impl PrimitiveSig {
    pub fn arity(&self) -> usize {
        self.args.len()
    }

    pub fn arg_index(&self, name: &str) -> Option<usize> {
        self.args.iter().position(|a| a.name == name)
    }

    /// The case whose input set is exactly `bound` (bit per argument), if any.
    pub fn case_for(&self, bound: u64) -> Option<usize> {
        self.cases.iter().position(|c| c.inputs == bound)
    }
}

#[derive(Clone, Debug)]
pub struct Catalogue {
    pub profile: Profile,
    primitives: Vec<PrimitiveSig>,
    by_name: HashMap<String, usize>,
}

#[derive(Deserialize)]
struct FileData {
    primitives: Vec<PrimData>,
}

#[derive(Deserialize)]
struct PrimData {
    name: String,
    #[serde(default)]
    profiles: Option<Vec<String>>,
    args: Vec<ArgData>,
    cases: Vec<Vec<String>>,
}

#[derive(Deserialize)]
struct ArgData {
    name: String,
    #[serde(rename = "type")]
    ty: String,
}

const EMBEDDED: &str = include_str!("../../kitchens/primitives.json");

/// Why a data file (a primitive catalogue, an ontology, a kitchen in the format of `kitchens/`)
/// cannot be used: what is wrong, in the file's own terms.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DataFileError(pub String);

impl From<String> for DataFileError {
    fn from(reason: String) -> Self {
        DataFileError(reason)
    }
}

impl From<&str> for DataFileError {
    fn from(reason: &str) -> Self {
        DataFileError(reason.to_owned())
    }
}

impl Catalogue {
    /// The built-in catalogue of a profile.
    pub fn builtin(profile: Profile) -> Catalogue {
        // The embedded file is checked by the test suite; a failure here is a build defect.
        Self::from_json(EMBEDDED, profile).expect("embedded kitchens/primitives.json is valid")
    }

    /// The built-in catalogue of a profile, read once for the process: for what writes
    /// actions of the built-in primitives (a model's own additions cannot change them).
    pub fn shared(profile: Profile) -> &'static Catalogue {
        static READ: [OnceLock<Catalogue>; 2] = [OnceLock::new(), OnceLock::new()];
        READ[profile.pick(0, 1)].get_or_init(|| Catalogue::builtin(profile))
    }

    pub fn from_json(text: &str, profile: Profile) -> Result<Catalogue, DataFileError> {
        let data: FileData = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut primitives = Vec::new();
        for p in data.primitives {
            if let Some(ps) = &p.profiles
                && !ps.iter().any(|x| x == profile.name())
            {
                continue;
            }
            primitives.push(Self::build(p)?);
        }
        let by_name = primitives
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), i))
            .collect();
        Ok(Catalogue {
            profile,
            primitives,
            by_name,
        })
    }

    fn build(p: PrimData) -> Result<PrimitiveSig, String> {
        if p.args.len() > 64 {
            return Err(format!("{}: too many arguments", p.name));
        }
        let index: HashMap<&str, usize> = p
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| (a.name.as_str(), i))
            .collect();
        let mut cases = Vec::new();
        for c in &p.cases {
            let mut inputs = 0u64;
            for name in c {
                let i = index
                    .get(name.as_str())
                    .ok_or_else(|| format!("{}: case names unknown argument {name}", p.name))?;
                inputs |= 1 << i;
            }
            cases.push(Case { inputs });
        }
        let all = cases.iter().fold(u64::MAX, |acc, c| acc & c.inputs);
        let any = cases.iter().fold(0, |acc, c| acc | c.inputs);
        let args = p
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let bit = 1u64 << i;
                let is_ks = a.ty == "kitchen-state";
                let role = match (any & bit != 0, all & bit != 0) {
                    (false, _) if is_ks => Role::KitchenStateOut,
                    (false, _) => Role::Output,
                    (true, true) if is_ks => Role::KitchenStateIn,
                    (true, true) => Role::Input,
                    (true, false) => Role::Optional,
                };
                ArgSig {
                    name: a.name.clone(),
                    ty: a.ty.clone(),
                    role,
                }
            })
            .collect();
        Ok(PrimitiveSig {
            name: p.name,
            args,
            cases,
        })
    }

    /// Add a primitive of one's own from its entry in the shape of `kitchens/primitives.json`'s
    /// (`{"name", "args": [{"name", "type"}], "cases": [[arg, ...]]}`); a name the catalogue
    /// has is refused, since redefining a built-in primitive would change official scores.
    pub fn add(&mut self, entry: &str) -> Result<&PrimitiveSig, DataFileError> {
        let data: PrimData = serde_json::from_str(entry).map_err(|e| e.to_string())?;
        if self.get(&data.name).is_some() {
            return Err(format!("the catalogue already has a primitive `{}`", data.name).into());
        }
        if data.cases.is_empty() {
            return Err(format!("{}: a primitive needs at least one case", data.name).into());
        }
        let sig = Self::build(data)?;
        self.by_name.insert(sig.name.clone(), self.primitives.len());
        self.primitives.push(sig);
        Ok(&self.primitives[self.primitives.len() - 1])
    }

    pub fn get(&self, name: &str) -> Option<&PrimitiveSig> {
        self.by_name.get(name).map(|&i| &self.primitives[i])
    }

    pub fn iter(&self) -> impl Iterator<Item = &PrimitiveSig> {
        self.primitives.iter()
    }

    pub fn len(&self) -> usize {
        self.primitives.len()
    }

    pub fn is_empty(&self) -> bool {
        self.primitives.is_empty()
    }
}
