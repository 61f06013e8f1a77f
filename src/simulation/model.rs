//! The model a simulation runs on: the ontology, the primitive catalogue, the initial kitchen
//! state and the primitive registry of a profile, loaded once and shared by every run.

use super::*;

/// Everything a simulation needs, loaded once per profile and shared by all runs.
pub struct Model {
    pub profile: Profile,
    pub onto: Ontology,
    pub k: Known,
    pub catalogue: Catalogue,
    /// The initial kitchen state (`full-kitchen`).
    pub kitchen: Arc<Entity>,
    /// The highest persistent id used by the initial kitchen.
    pub(super) kitchen_pids: Pid,
    /// SHA-256 of the kitchen data, for the signature: a changed kitchen changes the scores.
    pub kitchen_sha256: String,
    pub(super) registry: HashMap<&'static str, &'static dyn Primitive>,
    /// The time one recipe may take ([`budget::DEFAULT_TIME_BUDGET`] unless set): a run
    /// started with [`Model::execute`] has it, and an evaluation that runs the recipe inside a
    /// budget of its own keeps the sooner deadline.
    pub time_budget: Duration,
}

pub(super) const KITCHEN_2023: &str = include_str!("../../kitchens/full-kitchen-2023.json");
pub(super) const KITCHEN_2024: &str = include_str!("../../kitchens/full-kitchen-2024.json");

impl Model {
    /// The built-in ontology, catalogue and kitchen of a profile.
    pub fn builtin(profile: Profile) -> Model {
        let kitchen = profile.pick(KITCHEN_2023, KITCHEN_2024);
        // The embedded data is checked by the test suite; failing here is a build defect.
        Self::with_kitchen(profile, kitchen).expect("embedded kitchen data is valid")
    }

    /// The built-in ontology and catalogue of a profile with another initial kitchen state
    /// (`--kitchen FILE`).
    pub fn with_kitchen(profile: Profile, kitchen_json: &str) -> Result<Model, DataFileError> {
        let onto = Ontology::builtin(profile);
        let k = Known::new(&onto);
        let catalogue = Catalogue::builtin(profile);
        let (kitchen, kitchen_pids) = load_kitchen(&onto, profile, kitchen_json)?;
        let registry = primitives::registry();
        Ok(Model {
            profile,
            onto,
            k,
            catalogue,
            kitchen: Arc::new(kitchen),
            kitchen_pids,
            kitchen_sha256: crate::data::manifest::sha256_hex(kitchen_json.as_bytes()),
            registry,
            time_budget: budget::DEFAULT_TIME_BUDGET,
        })
    }

    pub fn maker(&self) -> Maker<'_> {
        Maker::new(&self.onto, self.kitchen_pids)
    }

    pub fn slot(&self, name: &str) -> Result<SlotId, SimError> {
        self.onto
            .slot_id(name)
            .ok_or_else(|| SimError::new(format!("the ontology has no slot {name}")))
    }

    pub fn class(&self, name: &str) -> Result<ClassId, SimError> {
        self.onto
            .class_id(name)
            .ok_or_else(|| SimError::new(format!("the ontology has no class {name}")))
    }

    /// Run one recipe network. `Err` is a run-time error that makes the reference refuse the
    /// whole file; `Ok` with `solved == false` is a recipe with no execution.
    pub fn execute(&self, recipe: &Recipe) -> Result<Execution, SimError> {
        Budget::new(self.time_budget).run(|| {
            budget::enter(Phase::Simulation);
            Engine::new(self, recipe)?.run()
        })
    }
}

/// Decode a kitchen data file (see `kitchens/README.md`). The file names its profile: the two
/// profiles' kitchens hold different objects under the same classes, so a kitchen of the other
/// profile would score differently without any error.
pub(super) fn load_kitchen(
    onto: &Ontology,
    profile: Profile,
    text: &str,
) -> Result<(Entity, Pid), String> {
    let root: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    match root.get("profile").and_then(|p| p.as_str()) {
        Some(named) if named == profile.name() => {}
        Some(named) => {
            return Err(format!(
                "a kitchen of profile {named}, not {profile}: pass --reference {named}, or a kitchen of profile {profile}"
            ));
        }
        None => {
            return Err(format!(
                "the kitchen names no profile (`\"profile\": \"{profile}\"` at its top, as in kitchens/)"
            ));
        }
    }
    let mut root = root
        .get("kitchen")
        .cloned()
        .ok_or("kitchen file: no `kitchen` entry")?;
    expand_counts(&mut root);
    let mut class_of = |s: &str| {
        onto.class_id(s)
            .ok_or_else(|| format!("kitchen: unknown class {s}"))
    };
    let mut unknown_slot = None;
    let mut slot_of = |s: &str| match onto.slot_id(s) {
        Some(id) => id,
        None => {
            unknown_slot = Some(s.to_string());
            0
        }
    };
    let init = parse_init(&root, &mut class_of, &mut slot_of)?;
    if let Some(s) = unknown_slot {
        return Err(format!("kitchen: unknown slot {s}"));
    }
    let mut maker = Maker::new(onto, 0);
    match maker.init(&init) {
        Value::Obj(e) if onto.is_a_name(e.class, "kitchen-state") => {
            let e = Arc::unwrap_or_clone(e);
            let last = maker.fresh_pid();
            Ok((e, last))
        }
        _ => Err("kitchen: the root must be a kitchen-state".into()),
    }
}

/// Replace `{"count": n, ...}` entries of lists by n copies.
pub(super) fn expand_counts(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for mut item in items.drain(..) {
                expand_counts(&mut item);
                let n = item.get("count").and_then(|c| c.as_u64()).unwrap_or(1);
                for _ in 0..n {
                    out.push(item.clone());
                }
            }
            *items = out;
        }
        serde_json::Value::Object(map) => map.values_mut().for_each(expand_counts),
        _ => {}
    }
}
