//! A primitive of one's own: `grill`, which the MUHAI Cooking Language lacks, registered on a
//! model with its catalogue entry (the shape of `kitchens/primitives.json`) and its code,
//! written with the helpers the built-in primitives use. The kitchen gains halloumi (a class of
//! one's own with a `grilled` slot, as a benchmark's `ontology.json` would add it) and a
//! recipe that grills it is scored against its own gold network, then against a network that
//! forgets to grill. The data (the entry, the ontology, the fridge's halloumi, the networks) is
//! in `examples/grilled-halloumi/`, which the Python package's test of the same primitive
//! written in Python reads too. docs/extending.md walks through it; the test suite runs it.
//!
//! ```sh
//! cargo run --release --example custom_primitive
//! ```

use cookingbot::base::number::Number;
use cookingbot::base::profile::Profile;
use cookingbot::benchmark::{Benchmark, DataSource, UserData};
use cookingbot::evaluate::Evaluator;
use cookingbot::metrics::metric::{Metric, MetricSet, RecipeResult};
use cookingbot::simulation::primitives::common::{Lookup, Start, bound, obj_mut, update_contents};
use cookingbot::simulation::primitives::errors::LispError;
use cookingbot::simulation::{Call, Model, SimError, builtin_kitchen};
use cookingbot::world::Value;

/// `grill`'s catalogue entry: one case, the thing to grill and the minutes it takes.
pub const GRILL: &str = include_str!("grilled-halloumi/grill.json");

/// Halloumi: a feta-like cheese sold by the piece, with a slot for `grill` to set.
pub const ONTOLOGY: &str = include_str!("grilled-halloumi/ontology.json");

/// A bowl of three pieces of halloumi, put at the end of the fridge.
pub const FRIDGE: &str = include_str!("grilled-halloumi/fridge.json");

pub const GOLD: &str = include_str!("grilled-halloumi/gold.solution");

/// The same recipe with the halloumi never grilled.
pub const UNGRILLED: &str = include_str!("grilled-halloumi/never-grilled.solution");

/// `grill`: every content of the container that has a `grilled` slot becomes grilled; done
/// `time` minutes after the container is ready, the kitchen 30 s after that (the cook's time).
fn grill(call: &mut Call<'_, '_>) -> Result<(), SimError> {
    let Start { m, mut ks, kt, .. } = call.start()?;
    let ready = call.ready_at(kt, "thing-to-grill")?;
    let minutes = call.number("time-to-grill-quantity")?;
    let done = ready.add(minutes.mul(Number::int(60)));
    let grilled = m.slot("grilled")?;
    let grilled_thing = match call.find(&ks, "thing-to-grill", Lookup::Kitchen)? {
        Some(pid) => {
            let pan = obj_mut(&mut ks, m, pid).ok_or(LispError::CONTENTS_OF_NIL)?;
            update_contents(m, pan, |item| {
                // Only what can be grilled takes the flag; the rest stays as it was.
                let _ = item.set(grilled, Value::T);
                Ok(())
            })?;
            bound(m, &ks, pid, LispError::CONTENTS_OF_NIL)?
        }
        None => call.failed(),
    };
    call.bind("thing-grilled", 1.0, grilled_thing, Some(done))?;
    call.finish(ks, ready.add(Number::int(30)))
}

/// The 2024 model with halloumi in the fridge and `grill` registered.
pub fn model() -> Result<Model, Box<dyn std::error::Error>> {
    let mut model = world()?;
    model.add_primitive(GRILL, grill)?;
    Ok(model)
}

/// The 2024 model with halloumi in the fridge, before any primitive is added.
pub fn world() -> Result<Model, Box<dyn std::error::Error>> {
    let mut onto = cookingbot::world::ontology::Ontology::builtin(Profile::R2024);
    onto.extend(&serde_json::from_str(ONTOLOGY)?)?;
    let mut kitchen: serde_json::Value = serde_json::from_str(builtin_kitchen(Profile::R2024))?;
    let places = kitchen["kitchen"]["contents"]
        .as_array_mut()
        .ok_or("the kitchen has no places")?;
    let fridge = places
        .iter_mut()
        .find(|p| p["class"] == "fridge")
        .ok_or("the kitchen has no fridge")?;
    let halloumi: Vec<serde_json::Value> = serde_json::from_str(FRIDGE)?;
    fridge["contents"]
        .as_array_mut()
        .ok_or("the fridge has no contents")?
        .extend(halloumi);
    Ok(Model::new(onto, &kitchen.to_string(), &kitchen)?)
}

/// Each network scored on every metric against the gold network, in the order given.
pub fn scores(networks: &[&str]) -> Result<Vec<RecipeResult>, Box<dyn std::error::Error>> {
    scores_with(model()?, networks)
}

/// [`scores`] with another model (`grill` written otherwise).
pub fn scores_with(
    model: Model,
    networks: &[&str],
) -> Result<Vec<RecipeResult>, Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let gold = dir.path().join("grilled-halloumi.solution");
    std::fs::write(&gold, GOLD)?;
    let source = DataSource::User(UserData::single(&gold, None)?);
    let benchmark = Benchmark::load(Profile::R2024, &source)?;
    let evaluator = Evaluator::with(model, benchmark);
    let metrics = Metric::ALL
        .into_iter()
        .fold(MetricSet::empty(), MetricSet::with);
    let mut out = Vec::new();
    for network in networks {
        let mut rows = evaluator
            .evaluate(network, &metrics)
            .map_err(|r| r.message)?;
        out.append(&mut rows);
    }
    Ok(out)
}

#[allow(dead_code)] // the test suite includes this file and calls `main`
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    for (name, row) in ["gold", "never grilled"]
        .iter()
        .zip(scores(&[GOLD, UNGRILLED])?)
    {
        let values: Vec<String> = Metric::ALL.iter().map(|&m| row.formatted(m)).collect();
        println!("{name}: {}", values.join(", "));
    }
    Ok(())
}
