//! The wall time one recipe's evaluation may take (`--timeout-per-recipe`), shared by every
//! phase of it: Smatch, the simulation's search and each primitive, goal-condition success and
//! the dish approximation score.
//!
//! The bounds on networks and quantities keep real recipes far below any budget (gold networks
//! take milliseconds); the budget stops what no bound foresaw (a search over 2^N orderings, a
//! dish of thousands of nested portions) as a refusal rather than a hang, and lets a front end
//! (the tool server) stop a call's work when its client stops waiting.
//!
//! One recipe is evaluated on one thread, and the loops that can run long sit deep inside
//! comparisons that return plain values (`similar`, the dish unfolding, Smatch's moves), called
//! from dozens of places. So the budget of the work in progress is the thread's current budget
//! ([`Budget::run`]) and deep code asks [`spent`] or [`check`], instead of every comparison
//! taking a budget argument for a condition that real inputs never meet. Work that finds the
//! budget spent returns early with a partial result, which the phase's caller discards by
//! asking [`check`] once the phase is over.

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The default time one recipe may take. The slowest gold network is scored (all four metrics,
/// three replayed Smatch searches) in well under a second, so a minute is over a hundred times
/// any benchmark-sized recipe, and a batch with a pathological file loses a minute, not the run.
pub const DEFAULT_TIME_BUDGET: Duration = Duration::from_secs(60);

/// How many questions [`spent`] answers from its count before it reads the clock again: a
/// clock read costs about as much as a few comparisons, and the loops that ask do at least that
/// much work per question.
const QUESTIONS_PER_CLOCK_READ: u32 = 64;

/// A limit on the wall time of one recipe's work, and optionally a flag that stops it sooner
/// (set by a front end whose caller gave up).
#[derive(Clone, Debug)]
pub struct Budget {
    limit: Duration,
    cancel: Option<Arc<AtomicBool>>,
}

/// The parts of a recipe's evaluation, named in a refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Smatch,
    Simulation,
    GoalConditions,
    Dish,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Smatch => "Smatch",
            Phase::Simulation => "the simulation",
            Phase::GoalConditions => "goal-condition success",
            Phase::Dish => "the dish approximation score",
        })
    }
}

/// Where the work was when its budget ran out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exhausted {
    pub phase: Phase,
    /// The action being run or compared (its index in the network), when the phase has one.
    pub action: Option<usize>,
    /// The budget's limit.
    pub limit: Duration,
    /// Stopped by the front end's flag rather than by the clock.
    pub cancelled: bool,
}

impl Exhausted {
    /// The refusal's text: what ran out and where the work was (`action_name` names an
    /// action's primitive, for `at action 12 (mix)`).
    pub fn message(&self, recipe: &str, action_name: impl Fn(usize) -> Option<String>) -> String {
        let why = if self.cancelled {
            format!("recipe {recipe} was stopped before it was scored")
        } else {
            format!(
                "recipe {recipe} was not scored within its time budget of {} s (--timeout-per-recipe)",
                self.limit.as_secs_f64()
            )
        };
        let at = match self.action {
            Some(p) => match action_name(p) {
                Some(name) => format!(" at action {} (`{name}`)", p + 1),
                None => format!(" at action {}", p + 1),
            },
            None => String::new(),
        };
        format!("{why}; it was in {}{at}", self.phase)
    }
}

/// The budget of the work running on this thread, and where that work is.
struct Current {
    deadline: Instant,
    limit: Duration,
    cancel: Vec<Arc<AtomicBool>>,
    phase: Phase,
    action: Option<usize>,
    countdown: u32,
    spent: bool,
}

thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

impl Current {
    fn cancelled(&self) -> bool {
        self.cancel.iter().any(|f| f.load(Ordering::Relaxed))
    }
}

/// Puts the outer budget back when the work under a budget ends, however it ends.
struct Restore(Option<Current>);

impl Drop for Restore {
    fn drop(&mut self) {
        let outer = self.0.take();
        CURRENT.with(|c| *c.borrow_mut() = outer);
    }
}

impl Budget {
    pub fn new(limit: Duration) -> Budget {
        Budget {
            limit,
            cancel: None,
        }
    }

    /// The same budget, also stopped as soon as `flag` is set.
    pub fn cancelled_by(mut self, flag: Arc<AtomicBool>) -> Budget {
        self.cancel = Some(flag);
        self
    }

    /// Run `work` with this budget as the thread's current one. Inside work that already has
    /// a budget, the deadline that comes sooner holds and either flag stops the work (a
    /// recipe's budget inside a tool call's).
    pub fn run<T>(&self, work: impl FnOnce() -> T) -> T {
        let deadline = Instant::now()
            .checked_add(self.limit)
            .unwrap_or_else(far_future);
        let outer = CURRENT.with(|c| c.borrow_mut().take());
        let (deadline, limit) = match &outer {
            Some(o) if o.deadline <= deadline => (o.deadline, o.limit),
            _ => (deadline, self.limit),
        };
        let mut cancel: Vec<Arc<AtomicBool>> = outer
            .iter()
            .flat_map(|o| o.cancel.iter().cloned())
            .collect();
        cancel.extend(self.cancel.iter().cloned());
        let current = Current {
            deadline,
            limit,
            cancel,
            phase: Phase::Simulation,
            action: None,
            countdown: 0,
            spent: outer.as_ref().is_some_and(|o| o.spent),
        };
        CURRENT.with(|c| *c.borrow_mut() = Some(current));
        let _restore = Restore(outer);
        work()
    }
}

/// A deadline no clock reaches, for a limit too large to add to now.
fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(100 * 365 * 24 * 3600)
}

/// Say which phase the current work is in (it starts at no action).
pub fn enter(phase: Phase) {
    CURRENT.with(|c| {
        if let Some(c) = c.borrow_mut().as_mut() {
            c.phase = phase;
            c.action = None;
        }
    });
}

/// Say which action the current work is on.
pub fn at_action(action: usize) {
    CURRENT.with(|c| {
        if let Some(c) = c.borrow_mut().as_mut() {
            c.action = Some(action);
        }
    });
}

/// Whether the current budget has run out (never, with none). Once spent, it stays spent.
pub fn spent() -> bool {
    CURRENT.with(|c| {
        let mut c = c.borrow_mut();
        let Some(c) = c.as_mut() else {
            return false;
        };
        if c.spent {
            return true;
        }
        if c.countdown > 0 {
            c.countdown -= 1;
            return false;
        }
        c.countdown = QUESTIONS_PER_CLOCK_READ;
        c.spent = Instant::now() > c.deadline || c.cancelled();
        c.spent
    })
}

/// How long the current budget has left, read now (zero once its flag is set), or `None`
/// with no budget: for work that waits on another's rather than computing, so that a wait
/// ends with the budget of the call that waits.
pub fn remaining() -> Option<Duration> {
    CURRENT.with(|c| {
        let c = c.borrow();
        let c = c.as_ref()?;
        if c.cancelled() {
            return Some(Duration::ZERO);
        }
        Some(c.deadline.saturating_duration_since(Instant::now()))
    })
}

/// `Err` with where the work was once the current budget has run out.
pub fn check() -> Result<(), Exhausted> {
    if !spent() {
        return Ok(());
    }
    Err(CURRENT.with(|c| {
        let c = c.borrow();
        let c = c.as_ref().expect("a spent budget is a current one");
        Exhausted {
            phase: c.phase,
            action: c.action,
            limit: c.limit,
            cancelled: c.cancelled() && Instant::now() <= c.deadline,
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin_until_spent() -> Exhausted {
        loop {
            if let Err(e) = check() {
                return e;
            }
            std::hint::spin_loop();
        }
    }

    #[test]
    fn no_budget_is_never_spent() {
        assert!(!spent());
        assert_eq!(check(), Ok(()));
    }

    #[test]
    fn a_spent_budget_names_its_phase_and_action_and_stays_spent() {
        let e = Budget::new(Duration::from_millis(5)).run(|| {
            enter(Phase::Dish);
            at_action(11);
            let e = spin_until_spent();
            assert!(spent(), "spent stays spent");
            e
        });
        assert_eq!(e.phase, Phase::Dish);
        assert_eq!(e.action, Some(11));
        assert!(!e.cancelled);
        assert_eq!(
            e.message("cole-slaw", |p| (p == 11).then(|| "mix".to_string())),
            "recipe cole-slaw was not scored within its time budget of 0.005 s \
             (--timeout-per-recipe); it was in the dish approximation score at action 12 (`mix`)"
        );
        // The budget ends with its work.
        assert!(!spent());
    }

    #[test]
    fn a_flag_stops_the_work_before_its_deadline() {
        let flag = Arc::new(AtomicBool::new(false));
        let budget = Budget::new(Duration::from_secs(3600)).cancelled_by(flag.clone());
        let e = budget.run(|| {
            enter(Phase::Smatch);
            assert_eq!(check(), Ok(()));
            flag.store(true, Ordering::Relaxed);
            spin_until_spent()
        });
        assert!(e.cancelled);
        assert_eq!(
            e.message("x", |_| None),
            "recipe x was stopped before it was scored; it was in Smatch"
        );
    }

    #[test]
    fn what_remains_is_none_without_a_budget_and_zero_once_stopped() {
        assert_eq!(remaining(), None);
        let flag = Arc::new(AtomicBool::new(false));
        let budget = Budget::new(Duration::from_secs(3600)).cancelled_by(flag.clone());
        budget.run(|| {
            let left = remaining().expect("a budget");
            assert!(left > Duration::from_secs(3000) && left <= Duration::from_secs(3600));
            flag.store(true, Ordering::Relaxed);
            assert_eq!(remaining(), Some(Duration::ZERO));
        });
        assert_eq!(remaining(), None);
    }

    #[test]
    fn the_sooner_of_two_nested_budgets_holds_and_the_flag_is_kept() {
        let flag = Arc::new(AtomicBool::new(false));
        let outer = Budget::new(Duration::from_secs(3600)).cancelled_by(flag.clone());
        outer.run(|| {
            // An inner, shorter budget holds, and the outer flag still stops it.
            Budget::new(Duration::from_secs(1800)).run(|| {
                flag.store(true, Ordering::Relaxed);
                assert!(spin_until_spent().cancelled);
            });
            // A longer inner budget does not extend the outer one.
            let e = Budget::new(Duration::from_secs(7200)).run(spin_until_spent);
            assert_eq!(e.limit, Duration::from_secs(3600));
        });
    }

    #[test]
    fn a_limit_too_large_for_the_clock_is_no_limit() {
        Budget::new(Duration::MAX).run(|| assert_eq!(check(), Ok(())));
    }
}
