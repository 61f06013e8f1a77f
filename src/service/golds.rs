//! The gold networks a job's run is scored against: a benchmark read for one call, or the
//! benchmark of an evaluator the front end keeps, whose gold runs are made once and shared by
//! every job on it (a substitution of a gold recipe then runs only the rewrite).

use crate::benchmark::{Benchmark, GoldRecipe};
use crate::evaluate::Evaluator;
use crate::metrics::{GoldRun, gold_run};
use crate::simulation::{Model, SimError};
use std::sync::Arc;

/// Gold data, as a job's `gold` source gives it for a recipe id.
#[derive(Clone)]
pub enum Golds {
    /// A benchmark read for one call (shared, so a command asking again for the same recipe
    /// id gets it without a copy): each gold run is made when asked for.
    Read(Arc<Benchmark>),
    /// An evaluator's benchmark, shared, never copied: a gold run on the evaluator's own model
    /// is the one it keeps.
    Kept(Arc<Evaluator>),
}

/// Where a job finds the gold data of a recipe id, asked only once it needs it (a command
/// locates or downloads the data then): `None` when there is none to use.
pub type GoldSource<'a> = dyn FnMut(&str) -> Result<Option<Golds>, String> + 'a;

impl Golds {
    pub fn benchmark(&self) -> &Benchmark {
        match self {
            Golds::Read(benchmark) => benchmark,
            Golds::Kept(evaluator) => &evaluator.benchmark,
        }
    }

    /// The gold recipe `id`, when the benchmark has it.
    pub fn recipe(&self, id: &str) -> Option<&GoldRecipe> {
        self.benchmark().recipe(id)
    }

    /// The run of `gold`'s network on `model`: the evaluator's kept run when `model` is the
    /// evaluator's own (a run on another model, one with primitives of its own, may differ),
    /// else made now.
    pub fn run(&self, model: &Model, gold: &GoldRecipe) -> Result<Arc<GoldRun>, SimError> {
        if let Golds::Kept(evaluator) = self
            && std::ptr::eq(model, &evaluator.model)
            && let Some(kept) = evaluator.gold_run_of(&gold.id)
        {
            return kept;
        }
        gold_run(model, &gold.network, &gold.primary_output_var).map(Arc::new)
    }
}
