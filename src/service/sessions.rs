//! Agents' kitchen sessions kept between calls, for a front end that serves many calls (the
//! tool server): each [`Session`] under an id of its own, ended when finished or idle too
//! long, their number and each one's lines bounded, so that a server's memory stays bounded
//! whatever its clients do. The time is read from a [`Clock`] given to the store, so expiry
//! is tested without waiting.
//!
//! When the store is full a new session is refused (the message says how many are open and
//! when the one idle longest expires) rather than an idle one evicted: a session an agent is
//! still within its idle time on never disappears under it.

use crate::evaluate::Evaluator;
use crate::report::dish_tree::DishNode;
use crate::session::admissible::{Candidate, Query};
use crate::session::describe::Place;
use crate::session::language::Primitive;
use crate::session::observation::{Observation, Opening, Score, View};
use crate::session::progress::Progress;
use crate::session::trajectory::Log;
use crate::session::{self, Session, SessionError};
use crate::simulation::Model;
use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// What every session id starts with: `kitchen-1`, `kitchen-2`, ... in the order given.
const ID_PREFIX: &str = "kitchen-";

/// How many ended sessions are remembered, to say why an id no longer answers.
const ENDED_KEPT: usize = 1_000;

/// Where the store reads the time.
pub trait Clock: Send + Sync {
    fn now(&self) -> Instant;
}

/// The system's monotonic clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// The bounds of a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Sessions open at once.
    pub sessions: usize,
    /// How long a session may go unused before it ends.
    pub idle: Duration,
    /// Lines one session may hold (at most [`session::MAX_LINES`]).
    pub lines: usize,
}

impl Default for Limits {
    /// 16 sessions, 30 minutes idle, 500 lines each: ten times the longest gold network (53
    /// actions), so that the store's sessions together hold at most 8,000 lines.
    fn default() -> Limits {
        Limits {
            sessions: 16,
            idle: Duration::from_secs(30 * 60),
            lines: 500,
        }
    }
}

/// Why the store could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("no session `{id}`: session ids are the `{ID_PREFIX}N` that starting a session gives")]
    Unknown { id: String },
    #[error("session `{id}` expired after {} unused; start a new one", span(*.idle))]
    Expired { id: String, idle: Duration },
    #[error("session `{id}` was finished; start a new one to go on")]
    Finished { id: String },
    #[error("session `{id}` has ended (finished, or unused too long); start a new one")]
    Ended { id: String },
    #[error(
        "{open} sessions are open, the most kept at once; the one unused longest, `{oldest}`, expires in {}: finish a session, or start one then",
        span(*.expires_in)
    )]
    Full {
        open: usize,
        oldest: String,
        expires_in: Duration,
    },
    #[error(
        "session `{id}` has {lines} lines, the most a session holds here; undo lines, or finish it"
    )]
    TooLarge { id: String, lines: usize },
    #[error(transparent)]
    Session(#[from] SessionError),
}

/// A duration in words: `29 min 59 s`, `45 s`.
fn span(d: Duration) -> String {
    let s = d.as_secs() + u64::from(d.subsec_nanos() > 0);
    match (s / 60, s % 60) {
        (0, s) => format!("{s} s"),
        (m, 0) => format!("{m} min"),
        (m, s) => format!("{m} min {s} s"),
    }
}

/// A session finished: its score and the network scored.
pub struct Finished {
    pub score: Score,
    pub network: String,
}

/// The open sessions, by id.
pub struct SessionStore {
    limits: Limits,
    clock: Arc<dyn Clock>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// How many ids were given: the next is `issued + 1`.
    issued: u64,
    open: Vec<Open>,
    /// The most recent ended sessions, oldest first.
    ended: VecDeque<(u64, Ending)>,
}

struct Open {
    number: u64,
    session: Arc<Mutex<Session>>,
    last_used: Instant,
}

#[derive(Clone, Copy)]
enum Ending {
    Finished,
    Expired,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Default for SessionStore {
    /// A store of the default [`Limits`] on the system's clock.
    fn default() -> SessionStore {
        SessionStore::new(Limits::default(), Arc::new(SystemClock))
    }
}

impl SessionStore {
    pub fn new(limits: Limits, clock: Arc<dyn Clock>) -> SessionStore {
        let lines = limits.lines.min(session::MAX_LINES);
        SessionStore {
            limits: Limits { lines, ..limits },
            clock,
            state: Mutex::new(State::default()),
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// How many sessions are open now.
    pub fn open_sessions(&self) -> usize {
        let mut state = lock(&self.state);
        state.expire(self.clock.now(), self.limits.idle);
        state.open.len()
    }

    /// A new session on `recipe`, scored by `evaluator`: its id and what it starts with.
    pub fn start(
        &self,
        evaluator: Arc<Evaluator>,
        recipe: &str,
    ) -> Result<(String, Opening), StoreError> {
        self.room()?;
        let session = Session::with_evaluator(evaluator, recipe)?;
        let opening = session.opening();
        Ok((self.open(session)?, opening))
    }

    /// `session` held by the store, under a new id (a fork of one of its sessions, or one
    /// [`SessionStore::start`] made), when there is room for it.
    pub fn open(&self, session: Session) -> Result<String, StoreError> {
        let mut state = lock(&self.state);
        let now = self.clock.now();
        state.expire(now, self.limits.idle);
        // Checked again: another session may have opened while this one was made.
        self.check_room(&state, now)?;
        state.issued += 1;
        let number = state.issued;
        state.open.push(Open {
            number,
            session: Arc::new(Mutex::new(session)),
            last_used: now,
        });
        Ok(format!("{ID_PREFIX}{number}"))
    }

    fn room(&self) -> Result<(), StoreError> {
        let mut state = lock(&self.state);
        let now = self.clock.now();
        state.expire(now, self.limits.idle);
        self.check_room(&state, now)
    }

    fn check_room(&self, state: &State, now: Instant) -> Result<(), StoreError> {
        if state.open.len() < self.limits.sessions {
            return Ok(());
        }
        let oldest = state.open.iter().min_by_key(|o| o.last_used);
        let (oldest, expires_in) = oldest.map_or((String::new(), Duration::ZERO), |o| {
            let idle = now.saturating_duration_since(o.last_used);
            (
                format!("{ID_PREFIX}{}", o.number),
                self.limits.idle.saturating_sub(idle),
            )
        });
        Err(StoreError::Full {
            open: state.open.len(),
            oldest,
            expires_in,
        })
    }

    /// Run `work` on session `id`, which counts as a use of it. The store is not held while
    /// it runs: sessions answer independently.
    pub fn with<R>(&self, id: &str, work: impl FnOnce(&mut Session) -> R) -> Result<R, StoreError> {
        let session = {
            let mut state = lock(&self.state);
            let now = self.clock.now();
            state.expire(now, self.limits.idle);
            let i = state.find(id, self.limits.idle)?;
            state.open[i].last_used = now;
            state.open[i].session.clone()
        };
        let mut session = lock(&session);
        Ok(work(&mut session))
    }

    /// Append one line to session `id` and run it ([`Session::act`]; `attempt`: a line the
    /// session does not take is a `rejected` observation, [`Session::attempt`]). The store's
    /// bound on lines is a refusal either way.
    pub fn act(&self, id: &str, line: &str, attempt: bool) -> Result<Observation, StoreError> {
        let most = self.limits.lines;
        self.with(id, |session| {
            if lines_of(session) >= most {
                return Err(StoreError::TooLarge {
                    id: id.to_string(),
                    lines: most,
                });
            }
            match attempt {
                true => Ok(session.attempt(line)),
                false => Ok(session.act(line)?),
            }
        })?
    }

    /// A variable or a place of session `id` ([`Session::look`]).
    pub fn look(&self, id: &str, name: &str) -> Result<View, StoreError> {
        Ok(self.with(id, |session| session.look(name))??)
    }

    /// How far the network of session `id` is ([`Session::progress`]).
    pub fn progress(&self, id: &str) -> Result<Progress, StoreError> {
        Ok(self.with(id, |session| session.progress())??)
    }

    /// Take back the last line of session `id` ([`Session::undo`]).
    pub fn undo(&self, id: &str) -> Result<String, StoreError> {
        Ok(self.with(id, Session::undo)??)
    }

    /// The lines that run now in session `id` ([`Session::admissible`]).
    pub fn admissible(&self, id: &str, query: &Query) -> Result<Vec<Candidate>, StoreError> {
        self.with(id, |session| session.admissible(query))
    }

    /// The action language of session `id` ([`Session::primitives`]).
    pub fn primitives(&self, id: &str) -> Result<Vec<Primitive>, StoreError> {
        self.with(id, |session| session.primitives())
    }

    /// Log the calls of session `id` into `log` from now on ([`Session::log_into`]; `kitchen`
    /// the kitchen file its model was made with).
    pub fn log_into(&self, id: &str, log: Log, kitchen: Option<&Path>) -> Result<(), StoreError> {
        self.with(id, |session| session.log_into(log, kitchen))
    }

    /// The network of session `id` so far.
    pub fn network(&self, id: &str) -> Result<String, StoreError> {
        self.with(id, |session| session.network())
    }

    /// End session `id` and score its network ([`Session::finish`]).
    pub fn finish(&self, id: &str) -> Result<Finished, StoreError> {
        let session = {
            let mut state = lock(&self.state);
            state.expire(self.clock.now(), self.limits.idle);
            let i = state.find(id, self.limits.idle)?;
            let open = state.open.remove(i);
            state.end(open.number, Ending::Finished);
            open.session
        };
        // A call still running on the session holds it until it returns.
        let session = lock(&session);
        Ok(Finished {
            score: session.finish(),
            network: session.network(),
        })
    }
}

/// The lines a session holds (the header aside).
fn lines_of(session: &Session) -> usize {
    session.line_count() - 1
}

impl State {
    /// End the sessions unused for `idle` or longer.
    fn expire(&mut self, now: Instant, idle: Duration) {
        let (gone, kept): (Vec<Open>, Vec<Open>) = std::mem::take(&mut self.open)
            .into_iter()
            .partition(|o| now.saturating_duration_since(o.last_used) >= idle);
        self.open = kept;
        for o in gone {
            self.end(o.number, Ending::Expired);
        }
    }

    fn end(&mut self, number: u64, how: Ending) {
        if self.ended.len() == ENDED_KEPT {
            self.ended.pop_front();
        }
        self.ended.push_back((number, how));
    }

    /// Where the open session `id` is in `open`, or why there is none.
    fn find(&self, id: &str, idle: Duration) -> Result<usize, StoreError> {
        let number = id
            .strip_prefix(ID_PREFIX)
            .and_then(|n| n.parse::<u64>().ok())
            .filter(|&n| n >= 1 && n <= self.issued && format!("{ID_PREFIX}{n}") == id);
        let Some(number) = number else {
            return Err(StoreError::Unknown { id: id.to_string() });
        };
        let id = id.to_string();
        let ending = self
            .ended
            .iter()
            .find(|(n, _)| *n == number)
            .map(|(_, how)| *how);
        match self.open.iter().position(|o| o.number == number) {
            Some(i) => Ok(i),
            None => Err(match ending {
                Some(Ending::Finished) => StoreError::Finished { id },
                Some(Ending::Expired) => StoreError::Expired { id, idle },
                None => StoreError::Ended { id },
            }),
        }
    }
}

/// The kitchen in short, as a network names what it holds: a line per place, its ingredients
/// by name (`butter`, not the bowl holding it), its tools by class with their number
/// (`9 whisk`); the places that hold nothing on one line. A look at a place gives amounts.
pub fn kitchen_summary(model: &Model, places: &[Place]) -> String {
    let ingredient = |node: &DishNode| {
        model
            .onto
            .class_id(&node.class)
            .is_some_and(|c| model.onto.is_a(c, model.k.ingredient))
    };
    let name = |node: &DishNode| match node.parts.as_slice() {
        [inner] if ingredient(inner) => inner.class.clone(),
        _ if node.count > 1 => format!("{} {}", node.count, node.class),
        _ => node.class.clone(),
    };
    let mut lines: Vec<String> = places
        .iter()
        .filter(|p| !p.contents.is_empty())
        .map(|p| {
            let held: Vec<String> = p.contents.iter().map(name).collect();
            format!("{}: {}\n", p.place, held.join(", "))
        })
        .collect();
    let empty: Vec<&str> = places
        .iter()
        .filter(|p| p.contents.is_empty())
        .map(|p| p.place.as_str())
        .collect();
    if !empty.is_empty() {
        lines.push(format!("empty: {}\n", empty.join(", ")));
    }
    lines.concat()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::profile::Profile;
    use crate::benchmark::DataSource;
    use crate::metrics::metric::{Metric, MetricSet};

    /// A clock the test moves.
    struct Hands(Mutex<Instant>);

    impl Clock for Hands {
        fn now(&self) -> Instant {
            *lock(&self.0)
        }
    }

    impl Hands {
        fn advance(&self, by: Duration) {
            *lock(&self.0) += by;
        }
    }

    const RECIPE: &str = "demo-garden-salad";
    const MINUTE: Duration = Duration::from_secs(60);

    fn demo() -> Arc<Evaluator> {
        static DEMO: std::sync::OnceLock<Arc<Evaluator>> = std::sync::OnceLock::new();
        DEMO.get_or_init(|| {
            Arc::new(Evaluator::new(Profile::R2024, DataSource::Demo).expect("the demo loads"))
        })
        .clone()
    }

    fn store(limits: Limits) -> (SessionStore, Arc<Hands>) {
        let hands = Arc::new(Hands(Mutex::new(Instant::now())));
        (SessionStore::new(limits, hands.clone()), hands)
    }

    fn start(store: &SessionStore) -> Result<String, StoreError> {
        store.start(demo(), RECIPE).map(|(id, _)| id)
    }

    #[test]
    fn ids_are_given_in_order_and_only_those_given_answer() {
        let (store, _) = store(Limits::default());
        assert_eq!(start(&store).unwrap(), "kitchen-1");
        assert_eq!(start(&store).unwrap(), "kitchen-2");
        for id in [
            "kitchen-3",
            "kitchen-0",
            "kitchen-01",
            "kitchen-",
            "1",
            "Kitchen-1",
        ] {
            let e = store.network(id).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "no session `{id}`: session ids are the `kitchen-N` that starting a session gives"
                )
            );
        }
        assert_eq!(store.network("kitchen-2").unwrap(), format!("#{RECIPE}\n"));
    }

    #[test]
    fn a_session_unused_for_the_idle_time_expires_and_a_use_starts_the_time_again() {
        let (store, hands) = store(Limits::default());
        let id = start(&store).unwrap();
        hands.advance(29 * MINUTE);
        store.act(&id, "(get-kitchen ?kitchen)", false).unwrap();
        hands.advance(29 * MINUTE);
        assert_eq!(store.open_sessions(), 1);
        assert_eq!(store.network(&id).unwrap().lines().count(), 2);
        hands.advance(30 * MINUTE - Duration::from_nanos(1));
        assert_eq!(store.open_sessions(), 1);
        hands.advance(Duration::from_nanos(1));
        assert_eq!(store.open_sessions(), 0);
        let e = store.act(&id, "(get-kitchen ?kitchen)", false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "session `kitchen-1` expired after 30 min unused; start a new one"
        );
    }

    #[test]
    fn a_full_store_refuses_a_new_session_naming_the_one_that_expires_first() {
        let limits = Limits {
            sessions: 2,
            ..Limits::default()
        };
        let (store, hands) = store(limits);
        let first = start(&store).unwrap();
        hands.advance(MINUTE);
        let second = start(&store).unwrap();
        hands.advance(9 * MINUTE);
        // A use of the first makes the second the one unused longest.
        store.look(&first, "fridge").unwrap();
        hands.advance(Duration::from_secs(30));
        let e = start(&store).unwrap_err();
        assert_eq!(
            e.to_string(),
            "2 sessions are open, the most kept at once; the one unused longest, `kitchen-2`, \
             expires in 20 min 30 s: finish a session, or start one then"
        );
        assert!(matches!(e, StoreError::Full { open: 2, .. }));
        // Past its idle time it has gone, and ids are never given twice.
        hands.advance(21 * MINUTE);
        assert_eq!(start(&store).unwrap(), "kitchen-3");
        assert!(matches!(
            store.undo(&second),
            Err(StoreError::Expired { .. })
        ));
        store.finish(&first).unwrap();
        assert_eq!(start(&store).unwrap(), "kitchen-4");
    }

    #[test]
    fn a_session_holds_at_most_its_lines_and_undo_makes_room() {
        let limits = Limits {
            lines: 2,
            ..Limits::default()
        };
        let (store, _) = store(limits);
        let id = start(&store).unwrap();
        store.act(&id, "(get-kitchen ?kitchen)", false).unwrap();
        store.act(&id, "; a comment", false).unwrap();
        let e = store.act(&id, "; another", false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "session `kitchen-1` has 2 lines, the most a session holds here; undo lines, or finish it"
        );
        assert_eq!(store.undo(&id).unwrap(), "; a comment");
        assert!(store.act(&id, "; another", false).is_ok());
        // No store takes more lines than a session does.
        let (big, _) = self::store(Limits {
            lines: usize::MAX,
            ..Limits::default()
        });
        assert_eq!(big.limits().lines, session::MAX_LINES);
    }

    #[test]
    fn sessions_are_independent_and_finishing_scores_one_and_ends_it() {
        let (store, _) = store(Limits::default());
        let (a, b) = (start(&store).unwrap(), start(&store).unwrap());
        let gold = crate::benchmark::DataSource::Demo;
        let benchmark = crate::benchmark::Benchmark::load(Profile::R2024, &gold).unwrap();
        let network = &benchmark.recipe(RECIPE).unwrap().network;
        for (i, predicate) in network.predicates.iter().enumerate() {
            store.act(&a, &predicate.to_string(), false).unwrap();
            if i < 3 {
                store.act(&b, &predicate.to_string(), false).unwrap();
            }
        }
        let whole = store.finish(&a).unwrap();
        let (_, lines) = whole.network.split_once('\n').unwrap();
        assert_eq!(lines.lines().count(), network.predicates.len());
        let row = whole.score.result.as_ref().unwrap();
        assert_eq!(row.formatted(Metric::GoalConditionSuccess), "1.00");
        assert_eq!(
            whole.score.csv,
            crate::report::csv::render(
                &demo()
                    .evaluate(
                        &whole.network,
                        &MetricSet::from_words(&Metric::ALL.map(Metric::name))
                    )
                    .unwrap(),
                &MetricSet::from_words(&Metric::ALL.map(Metric::name))
            )
        );
        assert!(matches!(
            store.look(&a, "fridge"),
            Err(StoreError::Finished { .. })
        ));
        assert_eq!(store.network(&b).unwrap().lines().count(), 4);
        assert_eq!(store.open_sessions(), 1);
    }

    #[test]
    fn ended_sessions_past_the_record_are_said_to_have_ended() {
        let limits = Limits {
            sessions: 1,
            ..Limits::default()
        };
        let (store, hands) = store(limits);
        for _ in 0..=ENDED_KEPT {
            start(&store).unwrap();
            hands.advance(30 * MINUTE);
        }
        assert_eq!(
            store.network("kitchen-1").unwrap_err().to_string(),
            "session `kitchen-1` has ended (finished, or unused too long); start a new one"
        );
        assert!(matches!(
            store.network("kitchen-2"),
            Err(StoreError::Expired { .. })
        ));
    }

    #[test]
    fn the_kitchen_in_short_names_ingredients_and_counts_tools() {
        let evaluator = demo();
        let session = Session::with_evaluator(evaluator.clone(), RECIPE).unwrap();
        let summary = kitchen_summary(&evaluator.model, &session.opening().places);
        let lines: Vec<&str> = summary.lines().collect();
        assert!(lines[0].starts_with("fridge: apple, avocado, banana, black-bean, "));
        assert_eq!(lines[1], "freezer: frozen-corn");
        assert!(lines[3].starts_with("kitchen-cabinet: 5 small-plate, 5 medium-plate, "));
        assert_eq!(
            lines[4],
            "empty: kitchen-sink, stove, microwave, counter-top, oven"
        );
    }
}
