//! The data a front end works in, resolved once: the profile, the benchmark, the kitchen, the
//! ontology and the time budget (a [`DataContext`]), the model they make and the one cache of
//! evaluators every job and session of that front end scores with. The command line, the tool
//! server, the Python package and the launcher all open a [`Workspace`] with
//! [`Workspace::open`], and every job of [`super::jobs`] takes one, so a `--kitchen` or a
//! user benchmark is honoured by every job of every front end alike.
//!
//! A load runs outside the cache's lock, in the thread of the call that asked first, within
//! that call's budget; a call asking for the same evaluator meanwhile waits for that load
//! within its own budget, and a call asking for another is not held up at all. So a load
//! that never ends (a folder whose `ontology.json` is a FIFO no one writes) costs its
//! caller's time and one thread, never the other calls'.

use super::context::DataContext;
use super::data_stamp::DataStamp;
use super::golds::{GoldSource, Golds};
use super::outcome::AppError;
use super::scoring::{self, EvaluateOptions};
use crate::base::budget;
use crate::base::profile::Profile;
use crate::benchmark::DataChoice;
use crate::evaluate::Evaluator;
use crate::metrics::metric::{Metric, MetricSet};
use crate::simulation::Model;
use crate::simulation::benchmark_world::World;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// How many evaluators (one per profile and benchmark asked for) are kept loaded.
const EVALUATORS_KEPT: usize = 4;

/// How often a wait for another call's load looks at its own budget's stop flag.
const WAIT_STEP: Duration = Duration::from_millis(100);

/// Why a workspace has no evaluator for a call.
#[derive(Clone, Debug, thiserror::Error)]
pub enum WorkspaceError {
    /// The benchmark data could not be located or loaded.
    #[error("{0}")]
    Data(String),
    /// Another call is loading it, and this call's budget ran out waiting.
    #[error("the benchmark asked for is still being loaded for another call; ask again")]
    Loading,
}

/// How an evaluator of a data context is loaded: [`load_evaluator`], or a test's loader.
type Loader = fn(&DataContext) -> Result<Evaluator, AppError>;

/// One front end's data: its context, the model of its profile in its world (`--benchmark`'s
/// own classes and kitchen, `--kitchen`), and its evaluators, each loaded once and kept while
/// the files it was loaded from are unchanged ([`DataStamp`]): an edited `kitchen.json` is read
/// again, as the command line reads it on every run.
pub struct Workspace {
    data: DataContext,
    model: Model,
    kitchen_name: String,
    /// The kitchen file as a user names it, to add what the kitchen lacks to.
    kitchen_file: String,
    /// The files the model was made from, as they were.
    stamp: DataStamp,
    cache: Mutex<Cache>,
    loader: Loader,
}

#[derive(Default)]
struct Cache {
    /// Used last, last; each with the stamp of the files it was loaded from.
    loaded: Vec<(Key, Arc<Evaluator>, DataStamp)>,
    /// The loads under way.
    loading: Vec<(Key, Arc<Load>)>,
}

/// The profile and benchmark an evaluator is loaded for.
type Key = (Profile, Option<DataChoice>);

/// A load under way, which the calls asking for the same evaluator wait for.
#[derive(Default)]
struct Load {
    result: Mutex<Option<Result<Arc<Evaluator>, WorkspaceError>>>,
    done: Condvar,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Load {
    fn finish(&self, result: Result<Arc<Evaluator>, WorkspaceError>) {
        *lock(&self.result) = Some(result);
        self.done.notify_all();
    }

    /// The load's result, waited for no longer than the current budget allows.
    fn wait(&self) -> Result<Arc<Evaluator>, WorkspaceError> {
        let mut result = lock(&self.result);
        loop {
            if let Some(done) = result.as_ref() {
                return done.clone();
            }
            let left = budget::remaining();
            if left == Some(Duration::ZERO) {
                return Err(WorkspaceError::Loading);
            }
            let step = left.map_or(WAIT_STEP, |left| left.min(WAIT_STEP));
            result = self
                .done
                .wait_timeout(result, step)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

/// The evaluator of a data context (`--reference`, `--benchmark`, `--kitchen`, the time budget
/// per recipe), its benchmark located as every command locates it (downloaded when missing,
/// unless offline).
pub fn load_evaluator(data: &DataContext) -> Result<Evaluator, AppError> {
    evaluator_over(data, super::load_model(data)?.0)
}

/// [`load_evaluator`] over a model of `data` already made.
pub(crate) fn evaluator_over(data: &DataContext, model: Model) -> Result<Evaluator, AppError> {
    let all = MetricSet::from_words(&Metric::ALL.map(Metric::name));
    let opts = EvaluateOptions::scoring(data.clone(), all);
    scoring::evaluator_with(&opts, model, || true, &mut std::io::sink())
}

impl Workspace {
    /// The workspace of `data`: its model is made now (the built-in world, a benchmark's own
    /// classes and kitchen, `--kitchen`, the time budget); its evaluators when a job first
    /// asks for one.
    pub fn open(data: DataContext) -> Result<Workspace, AppError> {
        let world = World::of(data.benchmark.as_ref(), data.kitchen.as_deref())?;
        let model = super::model_of(&world, &data)?;
        let stamp = DataStamp::of_world(data.benchmark.as_ref(), data.kitchen.as_deref());
        Ok(Workspace {
            kitchen_name: world.kitchen_name(),
            kitchen_file: world.kitchen_file(),
            data,
            model,
            stamp,
            cache: Mutex::new(Cache::default()),
            loader: load_evaluator,
        })
    }

    /// The workspace of a model of one's own (the Python package's `Model`, with primitives
    /// written in Python) and the evaluator over it: every job asked in it runs on that
    /// evaluator, which is kept while the files it was made from are unchanged (the front end
    /// that made it makes both again when they change). `model` is made from the same world as
    /// the evaluator's, `world`.
    pub fn over(
        data: DataContext,
        model: Model,
        world: &World,
        evaluator: Arc<Evaluator>,
    ) -> Workspace {
        let stamp = DataStamp::of_world(data.benchmark.as_ref(), data.kitchen.as_deref());
        let kept = DataStamp::of(&evaluator, data.kitchen.as_deref());
        let key = (data.profile, data.benchmark.clone());
        let cache = Cache {
            loaded: vec![(key, evaluator, kept)],
            loading: Vec::new(),
        };
        Workspace {
            kitchen_name: world.kitchen_name(),
            kitchen_file: world.kitchen_file(),
            data,
            model,
            stamp,
            cache: Mutex::new(cache),
            loader: load_evaluator,
        }
    }

    pub fn data(&self) -> &DataContext {
        &self.data
    }

    pub fn profile(&self) -> Profile {
        self.data.profile
    }

    /// The model of the workspace's profile in its world.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// How reports name the kitchen (`builtin`, or the kitchen file).
    pub fn kitchen_name(&self) -> &str {
        &self.kitchen_name
    }

    /// The kitchen file as a user names it (`World::kitchen_file`): the file given, or
    /// how to give one.
    pub fn kitchen_file(&self) -> &str {
        &self.kitchen_file
    }

    /// Whether the files the model was made from are unchanged: a front end that keeps
    /// workspaces between calls (the Python package) opens a new one otherwise.
    pub fn holds(&self) -> bool {
        self.stamp.holds()
    }

    /// The evaluator of the workspace's own data.
    pub fn evaluator(&self) -> Result<Arc<Evaluator>, WorkspaceError> {
        self.evaluator_of(None, None)
    }

    /// Run `job` on the model a network runs on and the gold data it is scored against (what
    /// a run's final dish is chosen against): the evaluator's own model and benchmark when the
    /// workspace's benchmark loads, so that its gold runs are made once and kept and nothing
    /// is copied; else the workspace's model and no gold data.
    pub fn with_gold<T>(&self, job: impl FnOnce(&Model, &mut GoldSource<'_>) -> T) -> T {
        match self.evaluator() {
            Ok(evaluator) => job(&evaluator.model, &mut |_| {
                Ok(Some(Golds::Kept(evaluator.clone())))
            }),
            Err(_) => job(&self.model, &mut |_| Ok(None)),
        }
    }

    /// The evaluator of `profile` (default: the workspace's) and `benchmark` (`demo` or a
    /// folder; default: the workspace's), with the workspace's other settings (kitchen,
    /// offline, time budget). The [`EVALUATORS_KEPT`] used last are kept.
    pub fn evaluator_of(
        &self,
        profile: Option<Profile>,
        benchmark: Option<DataChoice>,
    ) -> Result<Arc<Evaluator>, WorkspaceError> {
        let data = DataContext {
            profile: profile.unwrap_or(self.data.profile),
            benchmark: benchmark.or_else(|| self.data.benchmark.clone()),
            ..self.data.clone()
        };
        let key = (data.profile, data.benchmark.clone());
        let load = {
            let mut cache = lock(&self.cache);
            if let Some(i) = cache.loaded.iter().position(|(k, _, _)| *k == key) {
                let entry = cache.loaded.remove(i);
                if entry.2.holds() {
                    let evaluator = entry.1.clone();
                    cache.loaded.push(entry);
                    return Ok(evaluator);
                }
            }
            if let Some((_, load)) = cache.loading.iter().find(|(k, _)| *k == key) {
                let load = load.clone();
                drop(cache);
                return load.wait();
            }
            let load = Arc::new(Load::default());
            cache.loading.push((key.clone(), load.clone()));
            load
        };
        let loaded = (self.loader)(&data).map_err(|e| WorkspaceError::Data(e.to_string()));
        let loaded = loaded.map(|e| (DataStamp::of(&e, data.kitchen.as_deref()), Arc::new(e)));
        {
            let mut cache = lock(&self.cache);
            cache.loading.retain(|(_, l)| !Arc::ptr_eq(l, &load));
            if let Ok((stamp, evaluator)) = &loaded {
                cache.loaded.push((key, evaluator.clone(), stamp.clone()));
                if cache.loaded.len() > EVALUATORS_KEPT {
                    cache.loaded.remove(0);
                }
            }
        }
        let loaded = loaded.map(|(_, evaluator)| evaluator);
        load.finish(loaded.clone());
        loaded
    }
}

/// The workspaces a front end that parses no command line per call (the Python package) keeps
/// between calls, one per data context asked for, each while [`Workspace::holds`].
#[derive(Default)]
pub struct Workspaces(Mutex<Vec<Arc<Workspace>>>);

impl Workspaces {
    pub const fn new() -> Workspaces {
        Workspaces(Mutex::new(Vec::new()))
    }

    /// The workspace of `data`'s profile, benchmark and kitchen, opened again when a file its
    /// model was made from changed. Opening runs outside the lock.
    pub fn open(&self, data: DataContext) -> Result<Arc<Workspace>, AppError> {
        let same = |w: &Workspace| {
            w.data.profile == data.profile
                && w.data.benchmark == data.benchmark
                && w.data.kitchen == data.kitchen
        };
        {
            let mut open = lock(&self.0);
            open.retain(|w| !same(w) || w.holds());
            if let Some(found) = open.iter().find(|w| same(w)) {
                return Ok(found.clone());
            }
        }
        let opened = Arc::new(Workspace::open(data)?);
        let mut open = lock(&self.0);
        if open.len() >= EVALUATORS_KEPT {
            open.remove(0);
        }
        open.push(opened.clone());
        Ok(opened)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmark::DataSource;

    fn offline(data: DataContext) -> DataContext {
        DataContext {
            offline: true,
            ..data
        }
    }

    #[test]
    fn evaluators_are_loaded_once_per_profile_and_benchmark() {
        let workspace = Workspace::open(offline(DataContext {
            benchmark: Some(DataChoice::Demo),
            ..DataContext::default()
        }))
        .unwrap();
        let first = workspace.evaluator().unwrap();
        let again = workspace
            .evaluator_of(Some(Profile::R2024), Some(DataChoice::Demo))
            .unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        assert!(workspace.evaluator_of(Some(Profile::R2023), None).is_err());
    }

    /// The demo's evaluator whatever the data asked for (so a kitchen file's content is not
    /// read, only stamped).
    fn demo_load(data: &DataContext) -> Result<Evaluator, AppError> {
        Evaluator::new(data.profile, DataSource::Demo).map_err(|e| AppError::Failed(e.to_string()))
    }

    /// A workspace of `data` with `loader`, its model the built-in one.
    fn with_loader(data: DataContext, loader: Loader) -> Workspace {
        Workspace {
            loader,
            ..Workspace::open(offline(DataContext {
                kitchen: None,
                ..data.clone()
            }))
            .map(|w| Workspace { data, ..w })
            .unwrap()
        }
    }

    #[test]
    fn an_evaluator_is_loaded_again_once_a_file_it_was_loaded_from_changed() {
        let dir = std::env::temp_dir().join(format!("cookingbot-stale-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let kitchen = dir.join("kitchen.json");
        std::fs::write(&kitchen, "{}").unwrap();
        let workspace = with_loader(
            offline(DataContext {
                kitchen: Some(kitchen.clone()),
                ..DataContext::default()
            }),
            demo_load,
        );
        let first = workspace.evaluator().unwrap();
        assert!(Arc::ptr_eq(&first, &workspace.evaluator().unwrap()));
        std::fs::write(&kitchen, "{ }").unwrap();
        let edited = workspace.evaluator().unwrap();
        assert!(!Arc::ptr_eq(&first, &edited));
        assert!(Arc::ptr_eq(&edited, &workspace.evaluator().unwrap()));
        // The stale one was replaced, not kept beside the new one.
        assert_eq!(lock(&workspace.cache).loaded.len(), 1);
        std::fs::remove_file(&kitchen).unwrap();
        assert!(!Arc::ptr_eq(&edited, &workspace.evaluator().unwrap()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A kept workspace is opened again once its kitchen file changes: its model is the new
    /// kitchen's.
    #[test]
    fn a_kept_workspace_is_opened_again_once_its_kitchen_file_changed() {
        let dir = std::env::temp_dir().join(format!("cookingbot-kept-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let kitchen = dir.join("kitchen.json");
        let builtin = Workspace::open(DataContext::default()).unwrap();
        let text = include_str!("../../kitchens/full-kitchen-2024.json");
        std::fs::write(&kitchen, text).unwrap();
        let data = offline(DataContext {
            kitchen: Some(kitchen.clone()),
            ..DataContext::default()
        });
        let kept = Workspaces::new();
        let first = kept.open(data.clone()).unwrap();
        assert_eq!(first.kitchen_name(), kitchen.display().to_string());
        assert!(Arc::ptr_eq(&first, &kept.open(data.clone()).unwrap()));
        std::fs::write(&kitchen, format!("{text} ")).unwrap();
        let again = kept.open(data.clone()).unwrap();
        assert!(!Arc::ptr_eq(&first, &again));
        assert_eq!(lock(&kept.0).len(), 1);
        assert_eq!(builtin.kitchen_name(), "builtin");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Whether the slow loader may go on.
    static GATE: (Mutex<bool>, Condvar) = (Mutex::new(false), Condvar::new());

    /// The demo's evaluator, for the folder `slow` only once the gate opens.
    fn slow_load(data: &DataContext) -> Result<Evaluator, AppError> {
        if data.benchmark == Some(DataChoice::Folder("slow".into())) {
            let mut open = lock(&GATE.0);
            while !*open {
                open = GATE.1.wait(open).unwrap_or_else(PoisonError::into_inner);
            }
        }
        demo_load(data)
    }

    #[test]
    fn a_slow_load_holds_up_only_the_calls_asking_for_the_same_evaluator_within_their_budget() {
        let workspace = Arc::new(with_loader(offline(DataContext::default()), slow_load));
        let slow = || Some(DataChoice::Folder("slow".into()));
        let first = std::thread::spawn({
            let workspace = workspace.clone();
            move || workspace.evaluator_of(None, slow())
        });
        while lock(&workspace.cache).loading.is_empty() {
            std::thread::sleep(Duration::from_millis(1));
        }
        // Another benchmark loads while the slow one is under way.
        assert!(workspace.evaluator_of(None, Some(DataChoice::Demo)).is_ok());
        // A call asking for the slow one waits for it no longer than its budget.
        let waited = crate::base::budget::Budget::new(Duration::from_millis(50))
            .run(|| workspace.evaluator_of(None, slow()));
        assert_eq!(
            waited.map(|_| ()).unwrap_err().to_string(),
            "the benchmark asked for is still being loaded for another call; ask again"
        );
        *lock(&GATE.0) = true;
        GATE.1.notify_all();
        let loaded = first.join().unwrap().expect("the slow load ends");
        assert!(Arc::ptr_eq(
            &loaded,
            &workspace.evaluator_of(None, slow()).unwrap()
        ));
        assert!(lock(&workspace.cache).loading.is_empty());
    }
}
