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
    /// SHA-256 of the ontology extension the ontology was extended with, if any: it decides
    /// which classes exist and how amounts convert, so it changes the scores too.
    pub ontology_sha256: Option<String>,
    pub(super) registry: HashMap<String, Arc<dyn Primitive>>,
    /// The time one recipe may take ([`budget::DEFAULT_TIME_BUDGET`] unless set): a run
    /// started with [`Model::execute`] has it, and an evaluation that runs the recipe inside a
    /// budget of its own keeps the sooner deadline.
    pub time_budget: Duration,
}

pub(super) const KITCHEN_2023: &str = include_str!("../../kitchens/full-kitchen-2023.json");
pub(super) const KITCHEN_2024: &str = include_str!("../../kitchens/full-kitchen-2024.json");

/// The text of a profile's built-in kitchen (`kitchens/full-kitchen-<profile>.json`).
pub fn builtin_kitchen(profile: Profile) -> &'static str {
    profile.pick(KITCHEN_2023, KITCHEN_2024)
}

impl Model {
    /// The built-in ontology, catalogue and kitchen of a profile.
    pub fn builtin(profile: Profile) -> Model {
        let kitchen = builtin_kitchen(profile);
        // The embedded data is checked by the test suite; failing here is a build defect.
        Self::with_kitchen(profile, kitchen).expect("embedded kitchen data is valid")
    }

    /// The built-in ontology and catalogue of a profile with another initial kitchen state
    /// (`--kitchen FILE`).
    pub fn with_kitchen(profile: Profile, kitchen_json: &str) -> Result<Model, DataFileError> {
        let kitchen: serde_json::Value =
            serde_json::from_str(kitchen_json).map_err(|e| e.to_string())?;
        Self::new(Ontology::builtin(profile), kitchen_json, &kitchen)
            .map_err(|e| DataFileError(e.to_string()))
    }

    /// A model over an ontology (the built-in one of its profile, possibly extended) and an
    /// initial kitchen state, given as its text (which the signature fingerprints) and its JSON.
    pub fn new(
        onto: Ontology,
        kitchen_text: &str,
        kitchen: &serde_json::Value,
    ) -> Result<Model, FieldError> {
        let profile = onto.profile;
        let k = Known::new(&onto);
        let catalogue = Catalogue::builtin(profile);
        let (kitchen, kitchen_pids) = load_kitchen(&onto, profile, kitchen)?;
        let registry = primitives::registry();
        Ok(Model {
            profile,
            onto,
            k,
            catalogue,
            kitchen: Arc::new(kitchen),
            kitchen_pids,
            kitchen_sha256: crate::data::manifest::sha256_hex(kitchen_text.as_bytes()),
            ontology_sha256: None,
            registry,
            time_budget: budget::DEFAULT_TIME_BUDGET,
        })
    }

    /// Add a primitive of one's own: its catalogue entry, in the shape of an entry of
    /// `kitchens/primitives.json` (arguments with types, cases), and its code, which works as
    /// the built-in primitives do (`call.start()`, the helpers of
    /// [`primitives::common`], `call.bind`, `call.finish`). Networks using it are then checked,
    /// simulated and scored like any other.
    pub fn add_primitive(
        &mut self,
        entry: &str,
        code: impl Primitive + 'static,
    ) -> Result<(), DataFileError> {
        let name = self.catalogue.add(entry)?.name.clone();
        self.registry.insert(name, Arc::new(code));
        Ok(())
    }

    /// A validator of networks against this model's primitives and classes.
    pub fn validator(&self) -> Validator<'_> {
        Validator::new(self.profile)
            .with_catalogue(&self.catalogue)
            .with_classes(&self.onto)
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
        self.execute_after(recipe, None)
    }

    /// [`Model::execute`], given the steps of `recipe` run already in the order the search
    /// tries first (`Stepwise::first_path`): the same execution, without running them again.
    pub fn execute_after(
        &self,
        recipe: &Recipe,
        first: Option<FirstPath>,
    ) -> Result<Execution, SimError> {
        Budget::new(self.time_budget).run(|| {
            budget::enter(Phase::Simulation);
            Engine::new(self, recipe)?.run(first)
        })
    }
}

/// Decode a kitchen data file (see `kitchens/README.md`). The file names its profile: the two
/// profiles' kitchens hold different objects under the same classes, so a kitchen of the other
/// profile would score differently without any error.
pub(super) fn load_kitchen(
    onto: &Ontology,
    profile: Profile,
    root: &serde_json::Value,
) -> Result<(Entity, Pid), FieldError> {
    match root.get("profile").and_then(|p| p.as_str()) {
        Some(named) if named == profile.name() => {}
        Some(named) => {
            return Err(FieldError::new(format!(
                "a kitchen of profile {named}, not {profile}: pass --reference {named}, or a kitchen of profile {profile}"
            ))
            .in_key("profile"));
        }
        None => {
            return Err(FieldError::new(format!(
                "the kitchen names no profile (`\"profile\": \"{profile}\"` at its top, as in kitchens/)"
            )));
        }
    }
    let root = root
        .get("kitchen")
        .ok_or("the file has no `kitchen` entry")?;
    let mut class_of = |s: &str| {
        onto.class_id(s)
            .map(|id| (id, onto.class(id).weight))
            .ok_or_else(|| format!("unknown class `{s}`"))
    };
    let mut slot_of = |s: &str| onto.slot_id(s).ok_or_else(|| format!("unknown slot `{s}`"));
    // Every object is made as the kitchen loads: each is charged with its class's defaults.
    let mut made = Counted::within(MAX_COUNTED);
    let init = parse_init(root, &mut class_of, &mut slot_of, &mut made)
        .map_err(|e| e.in_key("kitchen"))?;
    let mut maker = Maker::new(onto, 0);
    match maker.init(&init) {
        Value::Obj(e) if onto.is_a_name(e.class, "kitchen-state") => {
            let e = Arc::unwrap_or_clone(e);
            let last = maker.fresh_pid();
            Ok((e, last))
        }
        _ => Err(FieldError::new("the root must be a kitchen-state").in_key("kitchen")),
    }
}
