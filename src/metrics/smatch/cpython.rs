//! What smatch.py leaves to CPython, reproduced so that the reference's climb can be replayed
//! step for step: the order in which a `set` of node numbers is iterated, and the Mersenne
//! Twister behind `random.randint`.
//!
//! smatch.py keeps each test node's candidate gold nodes in a `set`; its smart start takes the
//! *first* same-label candidate in iteration order, and its random starts draw from
//! `list(set)`. A set of small integers is not iterated in ascending order once its table is
//! smaller than its largest member, so the order follows CPython's hash table (3.x
//! `Objects/setobject.c`: linear probing of 9 slots, then perturbed jumps; growth to four times
//! the members when 3/5 full). The reference seeds `random` from the system, so no run is
//! reproducible as such; seeding it with a number makes it so, and [`PyRandom`] gives the same
//! draws as Python's `random.seed(n)` then `random.randint(0, len - 1)`.

/// Python's `random.Random` (MT19937) restricted to the calls smatch.py makes.
pub(super) struct PyRandom {
    mt: [u32; N],
    index: usize,
}

const N: usize = 624;
const M: usize = 397;

impl PyRandom {
    /// `random.seed(seed)` for a non-negative integer: the key is its 32-bit words, lowest
    /// first (one zero word for 0).
    pub fn new(seed: u128) -> Self {
        let mut key: Vec<u32> = (0..4).map(|w| (seed >> (32 * w)) as u32).collect();
        while key.len() > 1 && key.last() == Some(&0) {
            key.pop();
        }
        let mut r = PyRandom {
            mt: [0; N],
            index: N,
        };
        r.init_genrand(19_650_218);
        let mt = &mut r.mt;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        r
    }

    fn init_genrand(&mut self, s: u32) {
        self.mt[0] = s;
        for i in 1..N {
            let prev = self.mt[i - 1] ^ (self.mt[i - 1] >> 30);
            self.mt[i] = 1_812_433_253u32.wrapping_mul(prev).wrapping_add(i as u32);
        }
        self.index = N;
    }

    fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            for k in 0..N {
                let y = (self.mt[k] & 0x8000_0000) | (self.mt[(k + 1) % N] & 0x7fff_ffff);
                let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
                self.mt[k] = self.mt[(k + M) % N] ^ (y >> 1) ^ mag;
            }
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random.randint(0, n - 1)` for `1 <= n < 2^32`: rejection sampling on `n.bit_length()`
    /// bits, as `Random._randbelow` does (so `n = 1` still consumes draws).
    pub fn below(&mut self, n: usize) -> usize {
        let n = n.min(u32::MAX as usize) as u32;
        let bits = 32 - n.leading_zeros();
        loop {
            let r = self.next_u32() >> (32 - bits);
            if r < n {
                return r as usize;
            }
        }
    }
}

/// The iteration order of a CPython `set` of small non-negative integers (hash = value) built
/// by adding `items` one by one to an empty set. Slots hold `EMPTY` when free (node numbers
/// never reach it): half the table an `Option` takes, and no tag to test at each probe.
pub(super) fn set_order(items: impl IntoIterator<Item = u32>) -> Vec<u32> {
    let mut table: Vec<u32> = vec![EMPTY; 8];
    let mut used = 0usize;
    for x in items {
        debug_assert_ne!(x, EMPTY, "a node number");
        if !insert(&mut table, x, true) {
            continue;
        }
        used += 1;
        // No member is ever removed, so the table's fill equals its members.
        let mask = table.len() - 1;
        if used * 5 >= mask * 3 {
            let minused = if used > 50_000 { used * 2 } else { used * 4 };
            let mut size = 8;
            while size <= minused {
                size <<= 1;
            }
            let old = std::mem::replace(&mut table, vec![EMPTY; size]);
            for x in old.into_iter().filter(|&x| x != EMPTY) {
                insert(&mut table, x, false);
            }
        }
    }
    table.retain(|&x| x != EMPTY);
    table
}

/// A free slot of [`set_order`]'s table.
const EMPTY: u32 = u32::MAX;

/// Put `x` in its slot (`set_add_entry`, or `set_insert_clean` when `x` cannot be present);
/// false when it was already there.
fn insert(table: &mut [u32], x: u32, may_exist: bool) -> bool {
    const LINEAR_PROBES: usize = 9;
    let mask = table.len() - 1;
    let mut perturb = x as usize;
    let mut i = x as usize & mask;
    loop {
        let probes = if i + LINEAR_PROBES <= mask {
            LINEAR_PROBES
        } else {
            0
        };
        for slot in &mut table[i..=i + probes] {
            if *slot == EMPTY {
                *slot = x;
                return true;
            }
            if may_exist && *slot == x {
                return false;
            }
        }
        perturb >>= 5;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values printed by CPython 3.11 (`random.seed(1000); [random.randint(0, n - 1) ...]`
    /// and `list(s)` after adding the items in order).
    #[test]
    fn replays_cpython() {
        let mut r = PyRandom::new(1000);
        let draws: Vec<usize> = [10, 1, 3, 100, 7, 2, 1000, 5]
            .iter()
            .map(|&n| r.below(n))
            .collect();
        assert_eq!(draws, PY_DRAWS);
        assert_eq!(
            set_order([140, 3, 130, 12, 9, 200, 75, 44, 8, 136, 5, 131]),
            PY_SET
        );
    }

    const PY_DRAWS: [usize; 8] = [6, 0, 1, 45, 0, 1, 169, 4];
    const PY_SET: [u32; 12] = [130, 3, 131, 5, 200, 9, 8, 75, 140, 12, 44, 136];
}
