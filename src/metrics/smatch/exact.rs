//! Exact Smatch: branch and bound over node pairs, bounded by a Lagrangian relaxation.
//!
//! A matched relation triple pairs a test relation with a gold relation. Its point is split
//! between the pair of source nodes (share λ) and the pair of target nodes (share 1 − λ), so a
//! node pair earns its unary triples plus, per incident test relation, the best share it could
//! receive there. Every mapping then scores at most the sum of its pairs' earnings, and the best
//! assignment over those earnings bounds them all. Subgradient steps on the shares tighten the
//! bound towards the LP relaxation that smatch++ hands to an ILP solver; every assignment found
//! on the way is also a mapping, scored as a candidate. Branching fixes or forbids one pair.
//!
//! Its tables are dense over test nodes × gold nodes, so it only runs where that product is
//! at most [`MAX_PAIRS`]; beyond, the result is reported unproven.

use super::climb::Climber;
use super::problem::Problem;

/// The most test × gold node pairs exact mode builds tables for (about 50 MB).
pub const MAX_PAIRS: usize = 4_000_000;

/// Subgradient steps at the root of the search and at every other search node.
const ROOT_STEPS: usize = 60;
const NODE_STEPS: usize = 12;
/// Steps without a better bound after which the step size is halved.
const PATIENCE: usize = 4;
/// Float slack when comparing a bound with an integer score.
const SLACK: f64 = 1e-6;

/// What branch and bound established about a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Outcome {
    /// Matched triples of the best mapping found (never below the start's).
    pub best: i64,
    /// No mapping matches more than this: `best` when proven, otherwise the highest bound of
    /// the parts of the search left unexplored when the budget ran out.
    pub bound: i64,
}

impl Outcome {
    pub fn proven(&self) -> bool {
        self.best >= self.bound
    }
}

/// Branch and bound from a mapping already known; `budget` counts search nodes.
pub(super) fn branch_and_bound(
    p: &Problem,
    start: &[i32],
    start_score: i64,
    budget: u64,
) -> Outcome {
    let settled = |bound| Outcome {
        best: start_score,
        bound,
    };
    if p.n1 == 0 || p.n2 == 0 || start_score >= p.multiset_bound {
        return settled(start_score);
    }
    if p.n1.saturating_mul(p.n2) > MAX_PAIRS {
        return settled(p.multiset_bound);
    }
    let mut s = Search::new(p, start, start_score, budget);
    s.node(ROOT_STEPS, f64::INFINITY);
    debug_assert_eq!(p.score_of(&s.best_f), s.best);
    Outcome {
        best: s.best,
        bound: if s.aborted {
            s.unexplored.max(s.best).min(p.multiset_bound)
        } else {
            s.best
        },
    }
}

/// Shares of one test relation at one node pair: the relation pairs (indexes into
/// `Search::pairs`, or into its order by target) that can pay there, of which the best pays.
#[derive(Clone, Copy)]
struct Segment {
    relation: u32,
    node: u32,
    gold: u32,
    from: u32,
    to: u32,
}

/// A segment's payer when no relation pair in it is still possible.
const NO_PAYER: u32 = u32::MAX;

/// A test relation against a gold relation of the same role.
#[derive(Clone, Copy)]
struct RelationPair {
    a: u32,
    i: u32,
    k: u32,
    x: u32,
    y: u32,
    copies: f64,
}

struct Search<'a> {
    p: &'a Problem,
    pairs: Vec<RelationPair>,
    /// Sorted by (test relation, source gold node) / by (test relation, target gold node).
    by_target: Vec<u32>,
    sources: Vec<Segment>,
    targets: Vec<Segment>,
    /// Per relation pair, the share its source pair receives.
    lambda: Vec<f64>,
    /// `earn[i*n2+x]`: what mapping i to x earns under the current shares.
    earn: Vec<f64>,
    /// Per segment, the relation pair that pays there (the largest share).
    payer_src: Vec<u32>,
    payer_tgt: Vec<u32>,
    /// Pairs fixed on the search path (test → gold or -1), gold nodes they use, and pairs
    /// forbidden on the path.
    fixed: Vec<i32>,
    used: Vec<bool>,
    forbidden: Vec<bool>,
    /// The last relaxed solution as a mapping (forbidden pairs left out).
    relaxed: Vec<i32>,
    best: i64,
    best_f: Vec<i32>,
    nodes: u64,
    budget: u64,
    aborted: bool,
    /// The highest bound of a node on the search path when the budget ran out: every part of
    /// the search left unexplored lies below one of them.
    unexplored: i64,
    lap: Assignment,
    /// Test and gold nodes that can earn anything together, in groups that cannot earn
    /// across (a mapping's predicates and its variables, for networks): one assignment each.
    components: Vec<(Vec<usize>, Vec<usize>)>,
    climber: Climber<'a>,
    /// Test nodes that start a relation: branching on them first leaves an exact relaxation.
    source: Vec<bool>,
}

/// Groups of test and gold nodes linked by candidate pairs (connected components).
fn components(p: &Problem) -> Vec<(Vec<usize>, Vec<usize>)> {
    // Union-find over test nodes 0..n1 and gold nodes n1..n1+n2.
    let mut parent: Vec<usize> = (0..p.n1 + p.n2).collect();
    fn root(parent: &mut [usize], mut v: usize) -> usize {
        while parent[v] != v {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        v
    }
    for i in 0..p.n1 {
        for &x in p.cand(i) {
            let (a, b) = (root(&mut parent, i), root(&mut parent, p.n1 + x as usize));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut index = vec![usize::MAX; p.n1 + p.n2];
    let mut groups: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    for v in 0..p.n1 + p.n2 {
        let r = root(&mut parent, v);
        if index[r] == usize::MAX {
            index[r] = groups.len();
            groups.push(Default::default());
        }
        let g = &mut groups[index[r]];
        if v < p.n1 {
            g.0.push(v)
        } else {
            g.1.push(v - p.n1)
        }
    }
    groups.retain(|(t, g)| !t.is_empty() && !g.is_empty());
    groups
}

impl<'a> Search<'a> {
    fn new(p: &'a Problem, start: &[i32], start_score: i64, budget: u64) -> Self {
        let mut pairs = Vec::new();
        p.relation_pairs(|a, i, k, x, y, copies| {
            pairs.push(RelationPair {
                a: a as u32,
                i: i as u32,
                k: k as u32,
                x: x as u32,
                y: y as u32,
                copies: f64::from(copies),
            })
        });
        let mut source = vec![false; p.n1];
        for q in &pairs {
            source[q.i as usize] = true;
        }
        pairs.sort_by_key(|q| (q.a, q.x, q.y));
        let mut by_target: Vec<u32> = (0..pairs.len() as u32).collect();
        by_target.sort_by_key(|&n| {
            let q = &pairs[n as usize];
            (q.a, q.y, q.x)
        });
        let segments = |order: &mut dyn Iterator<Item = (u32, &RelationPair)>, source: bool| {
            let mut segs: Vec<Segment> = Vec::new();
            for (n, q) in order {
                let (node, gold) = if source { (q.i, q.x) } else { (q.k, q.y) };
                match segs.last_mut() {
                    Some(s) if (s.relation, s.gold) == (q.a, gold) => s.to = n + 1,
                    _ => segs.push(Segment {
                        relation: q.a,
                        node,
                        gold,
                        from: n,
                        to: n + 1,
                    }),
                }
            }
            segs
        };
        let sources = segments(
            &mut pairs.iter().enumerate().map(|(n, q)| (n as u32, q)),
            true,
        );
        let targets = segments(
            &mut by_target
                .iter()
                .enumerate()
                .map(|(n, &q)| (n as u32, &pairs[q as usize])),
            false,
        );
        Search {
            p,
            lambda: vec![0.5; pairs.len()],
            earn: vec![0.0; p.n1 * p.n2],
            payer_src: vec![0; sources.len()],
            payer_tgt: vec![0; targets.len()],
            pairs,
            by_target,
            sources,
            targets,
            fixed: vec![-1; p.n1],
            used: vec![false; p.n2],
            forbidden: vec![false; p.n1 * p.n2],
            relaxed: vec![-1; p.n1],
            best: start_score,
            best_f: start.to_vec(),
            nodes: 0,
            budget,
            aborted: false,
            unexplored: start_score,
            lap: Assignment::default(),
            components: components(p),
            climber: Climber::new(p),
            source,
        }
    }

    /// Whether mapping i to x is still possible on the search path.
    fn open(&self, i: usize, x: usize) -> bool {
        match self.fixed[i] {
            -1 => !self.used[x] && !self.forbidden[i * self.p.n2 + x],
            f => f == x as i32,
        }
    }

    /// The share of relation pair q its source pair receives, or `None` when the search path
    /// rules the pair out. A pair with a fixed end pays everything to its other end, so that
    /// once every source node is fixed the relaxation is exact.
    fn source_share(&self, q: usize) -> Option<f64> {
        let r = &self.pairs[q];
        let (i, k, x, y) = (r.i as usize, r.k as usize, r.x as usize, r.y as usize);
        if !self.open(i, x) || !self.open(k, y) {
            return None;
        }
        Some(if self.fixed[i] >= 0 {
            0.0
        } else if self.fixed[k] >= 0 {
            1.0
        } else {
            self.lambda[q]
        })
    }

    /// Earnings under the current shares.
    fn update_earnings(&mut self) {
        let (p, n2) = (self.p, self.p.n2);
        for i in 0..p.n1 {
            for (e, &u) in self.earn[i * n2..(i + 1) * n2]
                .iter_mut()
                .zip(p.unary_row(i))
            {
                *e = f64::from(u);
            }
        }
        for n in 0..self.sources.len() {
            let s = self.sources[n];
            let mut top = (0.0, NO_PAYER);
            for q in s.from..s.to {
                if let Some(share) = self.source_share(q as usize) {
                    let share = share * self.pairs[q as usize].copies;
                    if top.1 == NO_PAYER || share > top.0 {
                        top = (share, q);
                    }
                }
            }
            self.payer_src[n] = top.1;
            self.earn[s.node as usize * n2 + s.gold as usize] += top.0;
        }
        for n in 0..self.targets.len() {
            let s = self.targets[n];
            let mut top = (0.0, NO_PAYER);
            for m in s.from..s.to {
                let q = self.by_target[m as usize];
                if let Some(share) = self.source_share(q as usize) {
                    let share = (1.0 - share) * self.pairs[q as usize].copies;
                    if top.1 == NO_PAYER || share > top.0 {
                        top = (share, q);
                    }
                }
            }
            self.payer_tgt[n] = top.1;
            self.earn[s.node as usize * n2 + s.gold as usize] += top.0;
        }
    }

    /// The relaxation's value under the current shares; leaves its solution in `relaxed`.
    fn relax(&mut self) -> f64 {
        let (p, n2) = (self.p, self.p.n2);
        let earn = |i: usize, x: usize| {
            if self.forbidden[i * n2 + x] {
                0.0
            } else {
                self.earn[i * n2 + x]
            }
        };
        let mut value: f64 = (0..p.n1)
            .filter(|&i| self.fixed[i] >= 0)
            .map(|i| self.earn[i * n2 + self.fixed[i] as usize])
            .sum();
        self.relaxed.copy_from_slice(&self.fixed);
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for (tests, golds) in &self.components {
            let rows: Vec<usize> = tests
                .iter()
                .copied()
                .filter(|&i| self.fixed[i] < 0)
                .collect();
            let cols: Vec<usize> = golds.iter().copied().filter(|&x| !self.used[x]).collect();
            if rows.len() <= cols.len() {
                let to = self
                    .lap
                    .solve(rows.len(), cols.len(), |r, c| earn(rows[r], cols[c]));
                pairs.extend(to.iter().enumerate().map(|(r, &c)| (rows[r], cols[c])));
            } else {
                let to = self
                    .lap
                    .solve(cols.len(), rows.len(), |c, r| earn(rows[r], cols[c]));
                pairs.extend(to.iter().enumerate().map(|(c, &r)| (rows[r], cols[c])));
            }
        }
        for (i, x) in pairs {
            value += earn(i, x);
            if !self.forbidden[i * n2 + x] {
                self.relaxed[i] = x as i32;
            }
        }
        value
    }

    /// One subgradient step towards shares that lower the relaxation's value; false when the
    /// relaxed solution pays every split triple on both sides (no step changes the value).
    fn step(&mut self, value: f64, size: f64) -> bool {
        let mut g = vec![0.0f64; self.pairs.len()];
        for (s, &q) in self.sources.iter().zip(&self.payer_src) {
            if q != NO_PAYER && self.relaxed[s.node as usize] == s.gold as i32 {
                g[q as usize] += self.pairs[q as usize].copies;
            }
        }
        for (s, &q) in self.targets.iter().zip(&self.payer_tgt) {
            if q != NO_PAYER && self.relaxed[s.node as usize] == s.gold as i32 {
                g[q as usize] -= self.pairs[q as usize].copies;
            }
        }
        let norm: f64 = g.iter().map(|v| v * v).sum();
        if norm == 0.0 {
            return false;
        }
        let t = size * (value - self.best as f64).max(1.0) / norm;
        for (l, d) in self.lambda.iter_mut().zip(&g) {
            *l = (*l - t * d).clamp(0.0, 1.0);
        }
        true
    }

    /// Bound the current node by up to `steps` subgradient steps, keeping every relaxed
    /// solution that scores better; its best bound.
    fn bound(&mut self, steps: usize) -> f64 {
        let mut bound = f64::INFINITY;
        let (mut size, mut stale) = (1.0, 0);
        for _ in 0..steps {
            self.update_earnings();
            let value = self.relax();
            let score = self.p.score_of(&self.relaxed);
            if score > self.best {
                self.best = score;
                self.best_f.copy_from_slice(&self.relaxed);
            }
            if value < bound - SLACK {
                bound = value;
                stale = 0;
            } else {
                stale += 1;
                if stale >= PATIENCE {
                    size /= 2.0;
                    stale = 0;
                }
            }
            if self.closed(bound) || !self.step(value, size) {
                break;
            }
        }
        if !self.closed(bound) {
            // The relaxed solution is often a few moves from a better mapping.
            self.climber.climb_from(&self.relaxed);
            if self.climber.score > self.best {
                self.best = self.climber.score;
                self.best_f.copy_from_slice(&self.climber.f);
            }
        }
        bound
    }

    /// No mapping below a node bounded by `bound` beats the best found.
    fn closed(&self, bound: f64) -> bool {
        bound < self.best as f64 + 1.0 - SLACK
    }

    /// The pair to branch on: among free source nodes (once they are all fixed the relaxation
    /// is exact), the pair of the relaxed solution that earns something and whose row earns
    /// least elsewhere (largest regret); otherwise a free node's best open candidate; none when
    /// every free test node is out of candidates.
    fn branch_pair(&self) -> Option<(usize, usize)> {
        let (p, n2) = (self.p, self.p.n2);
        let mut choice: Option<(f64, usize, usize)> = None;
        for i in (0..p.n1).filter(|&i| self.fixed[i] < 0 && self.source[i]) {
            let x = self.relaxed[i];
            if x < 0 || self.earn[i * n2 + x as usize] <= 0.0 {
                continue;
            }
            let x = x as usize;
            let other = p
                .cand(i)
                .iter()
                .map(|&y| y as usize)
                .filter(|&y| y != x && self.open(i, y))
                .map(|y| self.earn[i * n2 + y])
                .fold(0.0, f64::max);
            let regret = self.earn[i * n2 + x] - other;
            if choice.is_none_or(|c| regret > c.0) {
                choice = Some((regret, i, x));
            }
        }
        if let Some((_, i, x)) = choice {
            return Some((i, x));
        }
        let mut free: Vec<usize> = (0..p.n1).filter(|&i| self.fixed[i] < 0).collect();
        free.sort_by_key(|&i| !self.source[i]);
        free.into_iter().find_map(|i| {
            p.cand(i)
                .iter()
                .map(|&x| x as usize)
                .filter(|&x| self.open(i, x))
                .max_by(|&x, &y| self.earn[i * n2 + x].total_cmp(&self.earn[i * n2 + y]))
                .map(|x| (i, x))
        })
    }

    /// Search below the current path; a child's mappings are some of its parent's, so the
    /// parent's bound holds for it too.
    fn node(&mut self, steps: usize, parent_bound: f64) {
        self.nodes += 1;
        let bound = self.bound(steps).min(parent_bound);
        if self.closed(bound) {
            return;
        }
        let Some((i, x)) = self.branch_pair() else {
            return;
        };
        let shares = self.lambda.clone();
        let q = i * self.p.n2 + x;
        for fix in [true, false] {
            if self.nodes >= self.budget {
                self.aborted = true;
            }
            if self.aborted {
                self.unexplored = self.unexplored.max((bound + SLACK).floor() as i64);
                return;
            }
            self.lambda.copy_from_slice(&shares);
            if fix {
                self.fixed[i] = x as i32;
                self.used[x] = true;
            } else {
                self.forbidden[q] = true;
            }
            self.node(NODE_STEPS, bound);
            self.fixed[i] = -1;
            self.used[x] = false;
            self.forbidden[q] = false;
        }
    }
}

/// Best assignment of every row to its own column (rows ≤ columns) by shortest augmenting
/// paths, O(rows² · columns); buffers reused between calls.
#[derive(Default)]
struct Assignment {
    u: Vec<f64>,
    v: Vec<f64>,
    row_of: Vec<usize>,
    way: Vec<usize>,
    min: Vec<f64>,
    seen: Vec<bool>,
}

impl Assignment {
    /// The column of each row in an assignment of the largest total `earn`.
    fn solve(
        &mut self,
        rows: usize,
        cols: usize,
        earn: impl Fn(usize, usize) -> f64,
    ) -> Vec<usize> {
        // Minimise the negated earnings; index 0 is the virtual start row and column.
        let cost = |r: usize, c: usize| -earn(r - 1, c - 1);
        self.u.clear();
        self.u.resize(rows + 1, 0.0);
        self.v.clear();
        self.v.resize(cols + 1, 0.0);
        self.row_of.clear();
        self.row_of.resize(cols + 1, 0);
        self.way.clear();
        self.way.resize(cols + 1, 0);
        for r in 1..=rows {
            self.row_of[0] = r;
            let mut c0 = 0;
            self.min.clear();
            self.min.resize(cols + 1, f64::INFINITY);
            self.seen.clear();
            self.seen.resize(cols + 1, false);
            loop {
                self.seen[c0] = true;
                let r0 = self.row_of[c0];
                let (mut delta, mut c1) = (f64::INFINITY, 0);
                for c in 1..=cols {
                    if self.seen[c] {
                        continue;
                    }
                    let reduced = cost(r0, c) - self.u[r0] - self.v[c];
                    if reduced < self.min[c] {
                        self.min[c] = reduced;
                        self.way[c] = c0;
                    }
                    if self.min[c] < delta {
                        delta = self.min[c];
                        c1 = c;
                    }
                }
                for c in 0..=cols {
                    if self.seen[c] {
                        self.u[self.row_of[c]] += delta;
                        self.v[c] -= delta;
                    } else {
                        self.min[c] -= delta;
                    }
                }
                c0 = c1;
                if self.row_of[c0] == 0 {
                    break;
                }
            }
            while c0 != 0 {
                let c1 = self.way[c0];
                self.row_of[c0] = self.row_of[c1];
                c0 = c1;
            }
        }
        let mut col_of = vec![0; rows];
        for c in 1..=cols {
            if self.row_of[c] != 0 {
                col_of[self.row_of[c] - 1] = c - 1;
            }
        }
        col_of
    }
}

#[cfg(test)]
mod tests {
    use super::super::triples_from_text;
    use super::*;

    #[test]
    fn pairs_over_the_table_size_stay_unproven() {
        // A variable used twice matches only one of two gold relations: the counting bound is
        // out of reach, so only a search could prove the optimum.
        let test: Vec<String> = (0..1000).map(|i| format!("(F ?A{i} ?A{i})")).collect();
        let gold: Vec<String> = (0..700).map(|i| format!("(F ?C{i} ?D{i})")).collect();
        let t = triples_from_text(&test.join(" "));
        let g = triples_from_text(&gold.join(" "));
        let p = Problem::new(&t, &g);
        assert!(p.n1 * p.n2 > MAX_PAIRS);
        assert!(p.multiset_bound > 2400);
        // No budget: only the size check keeps the search from running (and proving 2,400).
        let out = branch_and_bound(&p, &vec![-1; p.n1], 0, u64::MAX);
        assert_eq!((out.best, out.bound), (0, p.multiset_bound));
        assert!(!out.proven());
    }

    #[test]
    fn assignment_takes_the_best_total() {
        let earn = [[3.0, 1.0, 0.0], [3.0, 2.0, 0.0]];
        let cols = Assignment::default().solve(2, 3, |r, c| earn[r][c]);
        assert_eq!(cols, vec![0, 1]);
        let cols = Assignment::default().solve(2, 3, |r, c| earn[1 - r][c]);
        assert_eq!(cols, vec![1, 0]);
    }
}
