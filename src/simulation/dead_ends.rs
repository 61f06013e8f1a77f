//! The search's memo of explored sets: sets of executed actions (each keyed with the case it
//! ran with) whose every continuation the search has tried, so that it never explores the same
//! set again.
//!
//! The memo is consulted on entering every node of the search, so a set must be neither hashed
//! nor copied whole (that made long networks quadratic). Every node's set is one cell of an
//! append-only trail (the action just run and the cell of the set before it) plus a hash that
//! one XOR per action keeps up to date (Zobrist hashing). Sets with equal hashes are compared
//! exactly by walking both back to their common cell, so the memo answers exactly what a memo
//! of whole sets answers.

use std::collections::HashMap;

/// A set of executed actions: a handle into the trail.
#[derive(Clone, Copy, Debug)]
pub struct DoneSet {
    /// The trail cell of the last action added; `EMPTY` for no action.
    cell: usize,
    len: usize,
    hash: u64,
}

const EMPTY: usize = usize::MAX;

/// One step of the trail: the set of cell `parent` plus `action`.
struct Cell {
    action: usize,
    parent: usize,
}

pub struct DeadEnds {
    /// A fixed pseudo-random key per action; a set's hash is the XOR of its actions' keys.
    keys: Vec<u64>,
    trail: Vec<Cell>,
    /// The explored sets by hash: one per hash (a long network backs out of a set per action,
    /// and a list per hash cost four times the set), ...
    dead: HashMap<u64, DoneSet>,
    /// ... and those whose hash an explored set had already.
    collided: Vec<DoneSet>,
}

impl DeadEnds {
    pub fn new(actions: usize) -> DeadEnds {
        DeadEnds {
            keys: (0..actions as u64).map(splitmix64).collect(),
            trail: Vec::new(),
            dead: HashMap::new(),
            collided: Vec::new(),
        }
    }

    /// The set of no action.
    pub fn empty() -> DoneSet {
        DoneSet {
            cell: EMPTY,
            len: 0,
            hash: 0,
        }
    }

    /// `set` with `action` (not in it) added.
    pub fn with(&mut self, set: DoneSet, action: usize) -> DoneSet {
        self.trail.push(Cell {
            action,
            parent: set.cell,
        });
        DoneSet {
            cell: self.trail.len() - 1,
            len: set.len + 1,
            hash: set.hash ^ self.keys[action],
        }
    }

    pub fn is_dead(&self, set: DoneSet) -> bool {
        let Some(&known) = self.dead.get(&set.hash) else {
            return false;
        };
        self.same(known, set)
            || (self.collided.iter()).any(|&k| k.hash == set.hash && self.same(k, set))
    }

    pub fn mark_dead(&mut self, set: DoneSet) {
        if let Some(known) = self.dead.insert(set.hash, set) {
            self.collided.push(known);
        }
    }

    /// Whether two sets hold the same actions. Sets of equal size reach their common cell
    /// after the same number of steps back; up to there each holds the other's actions.
    fn same(&self, a: DoneSet, b: DoneSet) -> bool {
        if a.len != b.len {
            return false;
        }
        let (mut x, mut y) = (a.cell, b.cell);
        let (mut only_a, mut only_b) = (Vec::new(), Vec::new());
        while x != y {
            only_a.push(self.trail[x].action);
            only_b.push(self.trail[y].action);
            x = self.trail[x].parent;
            y = self.trail[y].parent;
        }
        only_a.sort_unstable();
        only_b.sort_unstable();
        only_a == only_b
    }
}

/// SplitMix64's output function: well-spread keys from consecutive indexes.
fn splitmix64(i: u64) -> u64 {
    let mut z = i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memo built on keys of our choosing: {0, 1} and {2, 3} hash alike (1 ^ 2 = 3 ^ 0).
    fn colliding() -> DeadEnds {
        DeadEnds {
            keys: vec![1, 2, 3, 0],
            ..DeadEnds::new(0)
        }
    }

    fn set(memo: &mut DeadEnds, actions: &[usize]) -> DoneSet {
        (actions.iter()).fold(DeadEnds::empty(), |set, &a| memo.with(set, a))
    }

    #[test]
    fn sets_whose_hashes_collide_are_told_apart_and_both_remembered() {
        let mut memo = colliding();
        let first = set(&mut memo, &[0, 1]);
        let second = set(&mut memo, &[2, 3]);
        assert_eq!(first.hash, second.hash);
        memo.mark_dead(first);
        assert!(!memo.is_dead(second));
        let reordered = set(&mut memo, &[1, 0]);
        assert!(memo.is_dead(reordered));
        memo.mark_dead(second);
        let (again_first, again_second) = (set(&mut memo, &[1, 0]), set(&mut memo, &[3, 2]));
        assert!(memo.is_dead(again_first) && memo.is_dead(again_second));
        let other = set(&mut memo, &[0, 2]);
        assert!(!memo.is_dead(other));
    }
}
