//! Which actions of a network can run now, kept up to date as the search runs and undoes
//! actions, so that finding the next action to try does not rescan the whole network.
//!
//! Whether an action can run depends only on the bindings of its own arguments, and bindings
//! change only when an action fills slots or is undone. The engine therefore re-decides only the
//! actions that use a changed slot; this module owns the bookkeeping (which actions use which
//! slot, which are executed, which can run and with which case), the engine owns the decision.

use super::ActionSlots;
use std::collections::BTreeSet;

pub struct Runnable {
    /// For every binding slot, the actions with an argument in it (each once, in file order):
    /// slot `s`'s are `users[first_user[s]..first_user[s + 1]]`. One flat list rather than a
    /// list per slot: a long network has several slots an action, each a few users. Indexes
    /// are `u32`: a network has at most `MAX_ACTIONS` actions of a few arguments each.
    users: Vec<u32>,
    first_user: Vec<u32>,
    /// Whether each action is executed on the current search path.
    done: Vec<bool>,
    /// The case each action not yet executed would run with now.
    case: Vec<Option<u32>>,
    /// The actions with a case, in file order.
    ready: BTreeSet<usize>,
}

impl Runnable {
    /// Nothing runnable yet; `slots[p]` are the binding slots of action `p`'s arguments.
    pub fn new(slots: &ActionSlots, slot_count: usize) -> Runnable {
        // The actions using each slot, as (slot, action) pairs in slot then file order.
        let mut uses: Vec<(usize, usize)> = slots
            .iter()
            .enumerate()
            .flat_map(|(p, args)| args.iter().map(move |&s| (s, p)))
            .collect();
        uses.sort_unstable();
        uses.dedup();
        let mut first_user = vec![0u32; slot_count + 1];
        for &(s, _) in &uses {
            first_user[s + 1] += 1;
        }
        for s in 0..slot_count {
            first_user[s + 1] += first_user[s];
        }
        // A list of its own (collecting in place would keep the pairs' allocation).
        let mut users = Vec::with_capacity(uses.len());
        users.extend(uses.iter().map(|&(_, p)| p as u32));
        Runnable {
            users,
            first_user,
            done: vec![false; slots.len()],
            case: vec![None; slots.len()],
            ready: BTreeSet::new(),
        }
    }

    /// The first action from index `from` on (file order) that can run now, with its case.
    pub fn first_from(&self, from: usize) -> Option<(usize, usize)> {
        let p = *self.ready.range(from..).next()?;
        self.case[p].map(|case| (p, case as usize))
    }

    /// Decide again whether actions `actions` can run (`case_of` gives the case an action would
    /// run with); executed actions stay out.
    pub fn refresh(
        &mut self,
        actions: impl IntoIterator<Item = usize>,
        case_of: impl Fn(usize) -> Option<usize>,
    ) {
        for p in actions {
            let case = if self.done[p] { None } else { case_of(p) };
            self.case[p] = case.map(|c| c as u32);
            if case.is_some() {
                self.ready.insert(p);
            } else {
                self.ready.remove(&p);
            }
        }
    }

    /// Decide again for every action that uses one of `slots`.
    pub fn refresh_users(
        &mut self,
        slots: impl IntoIterator<Item = usize>,
        case_of: impl Fn(usize) -> Option<usize>,
    ) {
        for s in slots {
            for i in self.first_user[s]..self.first_user[s + 1] {
                let p = self.users[i as usize] as usize;
                self.refresh([p], &case_of);
            }
        }
    }

    /// Action `p` ran: it is no longer a candidate.
    pub fn run(&mut self, p: usize) {
        self.done[p] = true;
        self.case[p] = None;
        self.ready.remove(&p);
    }

    /// Action `p` was undone; the caller refreshes it and the users of the slots it had filled.
    pub fn undo(&mut self, p: usize) {
        self.done[p] = false;
    }
}
