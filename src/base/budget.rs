//! The wall time one recipe's evaluation may take (`--timeout-per-recipe`), shared by every
//! phase of it: Smatch, the simulation's search and each primitive, goal-condition success and
//! the dish approximation score; and the memory it may hold, counted in kitchen cells (objects,
//! their slots and list items) as they are made ([`charge`]).
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

/// The most kitchen cells one recipe may hold: an object made or copied counts one cell and
/// one per slot, a list made or copied one per item (a cell is 32 to 40 bytes). The demo's gold
/// networks make under 17,000 cells, no gold or stored campaign network more than 1.9 million
/// (simulation and metrics), and a chain of `simulation::MAX_ACTIONS` fetches about 19.5
/// million (195 an action: its constants' objects, its outputs, the kitchen state's copy).
/// This bounds a recipe to about 1 GB, where a network of portions heaped on the counter-top,
/// copied into every later kitchen state, grew to gigabytes and the allocator aborted.
pub const MEMORY_BUDGET: u64 = 24_000_000;

/// How many questions [`spent`] answers from its count before it reads the clock again: a
/// clock read costs about as much as a few comparisons, and the loops that ask do at least that
/// much work per question.
const QUESTIONS_PER_CLOCK_READ: u32 = 64;

/// A limit on the wall time of one recipe's work, and optionally a flag that stops it sooner
/// (set by a front end whose caller gave up).
#[derive(Clone, Debug)]
pub struct Budget {
    limit: Duration,
    /// Set for a budget handed on ([`handed_on`]): the deadline of the work it came from.
    deadline: Option<Instant>,
    cancel: Vec<Arc<AtomicBool>>,
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

/// What ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The clock passed the budget's limit.
    Time(Duration),
    /// The front end's flag stopped the work.
    Cancelled,
    /// The recipe would hold more than [`MEMORY_BUDGET`] cells.
    Memory,
}

/// Where the work was when its budget ran out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exhausted {
    pub phase: Phase,
    /// The action being run or compared (its index in the network), when the phase has one.
    pub action: Option<usize>,
    pub cause: Cause,
}

impl Exhausted {
    /// The refusal's text: what ran out and where the work was (`action_name` names an
    /// action's primitive, for `at action 12 (mix)`).
    pub fn message(&self, recipe: &str, action_name: impl Fn(usize) -> Option<String>) -> String {
        let why = match self.cause {
            Cause::Cancelled => format!("recipe {recipe} was stopped before it was scored"),
            Cause::Time(limit) => format!(
                "recipe {recipe} was not scored within its time budget of {} s (--timeout-per-recipe)",
                limit.as_secs_f64()
            ),
            Cause::Memory => format!(
                "recipe {recipe} was not scored within its memory budget of {MEMORY_BUDGET} \
                 kitchen cells (objects, their slots and list items, about 1 GB)"
            ),
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
    /// Kitchen cells the recipe holds, against [`MEMORY_BUDGET`].
    cells: u64,
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
        let mut outer = self.0.take();
        CURRENT.with(|c| {
            let mut c = c.borrow_mut();
            // What the inner work made is held by the outer work's recipe.
            if let (Some(outer), Some(inner)) = (outer.as_mut(), c.as_ref()) {
                outer.cells = inner.cells;
                outer.spent |= inner.cells > MEMORY_BUDGET;
            }
            *c = outer;
        });
    }
}

impl Budget {
    pub fn new(limit: Duration) -> Budget {
        Budget {
            limit,
            deadline: None,
            cancel: Vec::new(),
        }
    }

    /// The same budget, also stopped as soon as `flag` is set.
    pub fn cancelled_by(mut self, flag: Arc<AtomicBool>) -> Budget {
        self.cancel.push(flag);
        self
    }

    /// Run `work` with this budget as the thread's current one. Inside work that already has
    /// a budget, the deadline that comes sooner holds and either flag stops the work (a
    /// recipe's budget inside a tool call's).
    pub fn run<T>(&self, work: impl FnOnce() -> T) -> T {
        let deadline = self.deadline.unwrap_or_else(|| {
            Instant::now()
                .checked_add(self.limit)
                .unwrap_or_else(far_future)
        });
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
            cells: outer.as_ref().map_or(0, |o| o.cells),
        };
        CURRENT.with(|c| *c.borrow_mut() = Some(current));
        let _restore = Restore(outer);
        work()
    }
}

/// The current thread's budget, for the work it hands to other threads (a budget is the
/// thread's own): the same deadline and every stop flag, so that a stopped call stops its
/// workers too. With no budget, one that never runs out (the workers' work keeps its own).
pub fn handed_on() -> Budget {
    CURRENT.with(|c| match c.borrow().as_ref() {
        Some(c) => Budget {
            limit: c.limit,
            deadline: Some(c.deadline),
            cancel: c.cancel.clone(),
        },
        None => Budget::new(Duration::MAX),
    })
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

/// Count `cells` kitchen cells made by the current work (see [`MEMORY_BUDGET`]); past the
/// budget, the work is spent.
pub fn charge(cells: usize) {
    CURRENT.with(|c| {
        if let Some(c) = c.borrow_mut().as_mut() {
            c.cells = c.cells.saturating_add(cells as u64);
            c.spent |= c.cells > MEMORY_BUDGET;
        }
    });
}

/// The kitchen cells the current work holds (0 with no budget).
pub fn cells() -> u64 {
    CURRENT.with(|c| c.borrow().as_ref().map_or(0, |c| c.cells))
}

/// Say how many kitchen cells the current work holds: what a run kept from earlier work (a
/// session's earlier actions), or what it holds again once it dropped what it made (a search
/// backing out of an action).
pub fn hold(cells: u64) {
    CURRENT.with(|c| {
        if let Some(c) = c.borrow_mut().as_mut() {
            c.cells = cells;
        }
    });
}

/// `Err` with where the work was once the current budget has run out.
pub fn check() -> Result<(), Exhausted> {
    if !spent() {
        return Ok(());
    }
    Err(exhausted())
}

/// [`check`] of the memory budget alone, for work that goes on past its time budget (a search
/// with an execution in hand).
pub fn check_memory() -> Result<(), Exhausted> {
    if cells() <= MEMORY_BUDGET {
        return Ok(());
    }
    Err(exhausted())
}

/// Where the spent work was and what ran out.
fn exhausted() -> Exhausted {
    CURRENT.with(|c| {
        let c = c.borrow();
        let c = c.as_ref().expect("a spent budget is a current one");
        let cause = if c.cells > MEMORY_BUDGET {
            Cause::Memory
        } else if c.cancelled() && Instant::now() <= c.deadline {
            Cause::Cancelled
        } else {
            Cause::Time(c.limit)
        };
        Exhausted {
            phase: c.phase,
            action: c.action,
            cause,
        }
    })
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
        assert_eq!(e.cause, Cause::Time(Duration::from_millis(5)));
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
        assert_eq!(e.cause, Cause::Cancelled);
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
                assert_eq!(spin_until_spent().cause, Cause::Cancelled);
            });
        });
        // A longer inner budget does not extend the outer one.
        let e = Budget::new(Duration::from_millis(5))
            .run(|| Budget::new(Duration::from_secs(7200)).run(spin_until_spent));
        assert_eq!(e.cause, Cause::Time(Duration::from_millis(5)));
    }

    #[test]
    fn a_budget_handed_to_another_thread_keeps_its_flags_and_deadline() {
        let flag = Arc::new(AtomicBool::new(false));
        let outer = Budget::new(Duration::from_secs(3600)).cancelled_by(flag.clone());
        let handed = outer.run(|| Budget::new(Duration::from_secs(1800)).run(handed_on));
        flag.store(true, Ordering::Relaxed);
        let e = std::thread::spawn(move || handed.run(spin_until_spent));
        assert_eq!(e.join().unwrap().cause, Cause::Cancelled);
        let handed = Budget::new(Duration::from_millis(5)).run(handed_on);
        let e = std::thread::spawn(move || {
            Budget::new(Duration::from_secs(60)).run(|| handed.run(spin_until_spent))
        });
        assert_eq!(
            e.join().unwrap().cause,
            Cause::Time(Duration::from_millis(5))
        );
        // Without a budget, one that never runs out.
        assert_eq!(
            handed_on().run(|| (spent(), remaining().is_some())),
            (false, true)
        );
    }

    #[test]
    fn cells_past_the_memory_budget_spend_it_and_are_named() {
        let e = Budget::new(Duration::from_secs(3600)).run(|| {
            hold(MEMORY_BUDGET - 10);
            charge(10);
            assert_eq!(check(), Ok(()));
            // Inner work counts on from the outer work's cells, which then hold what it made.
            Budget::new(Duration::from_secs(60)).run(|| {
                assert_eq!(cells(), MEMORY_BUDGET);
                charge(1);
            });
            assert_eq!(cells(), MEMORY_BUDGET + 1);
            assert!(spent(), "spent as soon as the inner work went over");
            enter(Phase::Simulation);
            at_action(3);
            check().expect_err("over the memory budget")
        });
        assert_eq!(e.cause, Cause::Memory);
        assert_eq!(
            e.message("x", |_| Some("portion-and-arrange".to_string())),
            "recipe x was not scored within its memory budget of 24000000 kitchen cells \
             (objects, their slots and list items, about 1 GB); it was in the simulation at \
             action 4 (`portion-and-arrange`)"
        );
        // Work without a budget counts nothing.
        charge(5);
        assert_eq!(cells(), 0);
    }

    #[test]
    fn a_limit_too_large_for_the_clock_is_no_limit() {
        Budget::new(Duration::MAX).run(|| assert_eq!(check(), Ok(())));
    }
}
