//! Exact Smatch: branch and bound over node pairs, bounded by a Lagrangian relaxation.
//!
//! A matched relation triple pairs a test relation with a gold relation. Its point is split
//! between the pair of source nodes (share λ) and the pair of target nodes (share 1 − λ), so a
//! node pair earns its unary triples plus, per incident test relation, the best share it could
//! receive there — and where several test relations meet at one node pair, the best matching of
//! them to distinct gold relations, since a mapping pairs them so (on the benchmark's
//! same-family pairs this is what smatch++'s LP gains from its gold-side constraints). Every
//! mapping then scores at most the sum of its pairs' earnings, and the best assignment over
//! those earnings bounds them all. Deflected subgradient steps on the shares tighten the bound
//! towards the LP relaxation that smatch++ hands to an ILP solver (on the benchmark's
//! same-family pairs that LP is within about two triples of the optimum). The assignment's
//! duals also bound every mapping that uses a given pair, so pairs that cannot reach the best
//! mapping found plus one are forbidden on the spot (reduced-cost fixing). Branching fixes or
//! forbids one pair. Relations into nodes used once on both sides are counted with their
//! source pair, unsplit ([`Problem::settled_with_sources`]): some best mapping matches them
//! whenever it pairs their sources.
//!
//! Mappings to beat come from the relaxed solutions: each is made a mapping, improved by
//! alternating exact assignments of the variables given the predicates and of the predicates
//! given the variables, then climbed; at the root, a large-neighbourhood search re-solves the
//! neighbourhood of each predicate with the others pinned. On different recipes the best
//! mapping, as much as the bound, is what is missing for a proof.
//!
//! Its tables are dense over test nodes × gold nodes, so it only runs where that product is
//! at most [`MAX_PAIRS`]; beyond, the result is reported unproven.

use super::climb::{Climber, Work};
use super::problem::Problem;

/// The most test × gold node pairs exact mode builds tables for (about 50 MB).
pub const MAX_PAIRS: usize = 4_000_000;

/// Subgradient steps at most at the root of the search and at every other search node (a
/// node stops as soon as its bound closes it). Measured on the benchmark's same-family pairs:
/// the root bound keeps falling towards the LP value for several hundred steps, and a patient
/// step size gets there (60 steps halving after 4 stale ones stopped 2–6 triples short). On 42
/// of those pairs, with [`MOMENTUM`], 500 and 50 proved 40 in 45 s; 1,000 and 30 proved 37 in
/// 52 s, 500 and 30 37 in 41 s, 500 and 80 39 in 52 s.
const ROOT_STEPS: usize = 500;
const NODE_STEPS: usize = 50;
/// Steps without a better bound after which the step size is halved.
const PATIENCE: usize = 20;
/// How much of the last step's direction the next keeps (a deflected subgradient). Plain
/// subgradient steps zigzag: on afghan-biscuits against almond-crescent-cookies-5 they end
/// 1,000 steps at 298.9, where the LP (HiGHS, 297.7) proves the optimum 297; keeping 0.9 of
/// the direction reaches 298 within 780.
const MOMENTUM: f64 = 0.9;
/// A neighbourhood of [`Search::improve_by_neighbourhoods`]: predicates up to this many
/// shared variables away from its centre, searched by this many relaxation steps. On the 20
/// same-family pairs left unproven without it, 2 hops and 10 steps proved 8 (1 hop: 7; 3
/// hops: 6; 20 steps: 8, slower) and halved the summed gap (78 → 41 triples) in the same time.
const NEIGHBOURHOOD_HOPS: usize = 2;
const NEIGHBOURHOOD_STEPS: usize = 10;
/// Work ([`Search::work`]) allowed for the root and for every search node of the budget. On
/// the benchmark's 210 same-family pairs the root does at most 5.1e8 and the nodes below it at
/// most 1.9e7 each on average (about 2.5e8 a second), so these never bind there; a network of
/// thousands of actions, whose every step costs a hundred times more, is stopped after about
/// twice as much work as those pairs take.
const ROOT_WORK: u64 = 1_000_000_000;
const NODE_WORK: u64 = 40_000_000;
/// Rounds of [`Search::alternate`] at most (it usually settles in two or three).
const MAX_ROUNDS: usize = 8;
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

/// Branch and bound from a mapping already known; `budget` counts search nodes, and allows
/// [`ROOT_WORK`] plus [`NODE_WORK`] a node.
pub(super) fn branch_and_bound(
    p: &Problem,
    start: &[i32],
    start_score: i64,
    budget: u64,
) -> Outcome {
    let work_limit = ROOT_WORK.saturating_add(budget.saturating_mul(NODE_WORK));
    search(p, start, start_score, budget, work_limit)
}

/// [`branch_and_bound`] with its work limit given.
fn search(p: &Problem, start: &[i32], start_score: i64, budget: u64, work_limit: u64) -> Outcome {
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
    let mut s = Search::new(p, start, start_score, budget, work_limit);
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
    role: u32,
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
    /// The last step's direction, per relation pair (see [`Search::step`]).
    direction: Vec<f64>,
    /// Per relation pair, the share its source pair receives on the search path (NaN where
    /// the path rules the pair out), and buffers for the matchings of `update_earnings`.
    share: Vec<f64>,
    options: Vec<(f64, u32)>,
    option_rows: Vec<(usize, usize)>,
    chosen: Vec<(f64, u32)>,
    /// `earn[i*n2+x]`: what mapping i to x earns under the current shares.
    earn: Vec<f64>,
    /// Per segment, the relation pair that pays there (the largest share).
    payer_src: Vec<u32>,
    payer_tgt: Vec<u32>,
    /// Target segments grouped by node pair: ranges into `meet_order`. Test relations into
    /// one node take distinct gold relations into its image, so their shares there are a
    /// matching, not each its best.
    meets: Vec<(u32, u32)>,
    meet: Meet,
    meet_order: Vec<u32>,
    /// Pairs fixed on the search path (test → gold or -1), gold nodes they use, and pairs
    /// forbidden on the path.
    fixed: Vec<i32>,
    used: Vec<bool>,
    forbidden: Vec<bool>,
    /// The last relaxed solution as a mapping (forbidden pairs left out).
    relaxed: Vec<i32>,
    /// The relaxed solution made a mapping (see [`Search::keep_if_better`]).
    mapping: Vec<i32>,
    /// The last relaxed solution [`Search::alternate`] improved at the root.
    tried: Vec<i32>,
    best: i64,
    best_f: Vec<i32>,
    nodes: u64,
    budget: u64,
    /// Work done so far (see [`Search::work`]) and the most allowed: search nodes alone do not
    /// bound the time, since a node's steps cost in proportion to test × gold node pairs.
    cells: u64,
    work_limit: u64,
    aborted: bool,
    /// The highest bound of a node on the search path when the budget ran out: every part of
    /// the search left unexplored lies below one of them.
    unexplored: i64,
    lap: Assignment,
    /// The earnings table of the assignment being solved (a reused buffer).
    matrix: Vec<f64>,
    /// Column duals of the last exact assignment per group (test node, or n1 + gold node).
    dual: Vec<f64>,
    /// Per group, the floor its matching was taken above (see [`Search::relax`]).
    floor: Vec<f64>,
    /// Pairs forbidden by reduced cost, in order, for the search nodes to undo.
    trail: Vec<usize>,
    /// Test and gold nodes that can earn anything together, in groups that cannot earn
    /// across (a mapping's predicates and its variables, for networks): one assignment each.
    components: Vec<(Vec<usize>, Vec<usize>)>,
    climber: Climber<'a>,
    /// Per class of test nodes, the gold nodes by unary value, most first (then ascending),
    /// and how many gold nodes earn 0, 1, 2 and 3 unary triples: what `reassign` reads.
    by_unary: Vec<Vec<u32>>,
    class_count: Vec<[u32; 4]>,
    /// Test nodes that start a relation: branching on them first leaves an exact relaxation.
    source: Vec<bool>,
    /// Relation pairs counted as unary triples of their source pair: see
    /// [`Problem::settled_with_sources`]. They need no share, and the target pairs they leave
    /// earn only their floor, which keeps them out of the assignment.
    settled: Vec<Settled>,
}

/// A relation pair settled by its source pair `(i, x)` (`cell` = i · n2 + x), while its target
/// pair `(k, y)` is still possible.
#[derive(Clone, Copy)]
struct Settled {
    cell: u32,
    k: u32,
    y: u32,
    copies: f64,
}

/// The table of [`Search::reassign`]: one side's test nodes (rows) against the gold nodes the
/// other side leaves free (columns), and the cells the other side's images raise above their
/// unary value.
struct Reassignment {
    rows: Vec<usize>,
    /// Gold nodes left free, ascending.
    cols: Vec<usize>,
    /// Per gold node, its column, or `usize::MAX` when the other side holds it.
    col_at: Vec<usize>,
    /// Gold nodes the other side holds.
    held: Vec<usize>,
    /// (row, column, value) of the cells above their unary value, by row and column.
    raised: Vec<(usize, usize, i32)>,
    /// Per row, where its raised cells start (and, one on, end).
    row_from: Vec<usize>,
    /// Relation triples the other side's images gave (work done).
    hits: usize,
}

impl Reassignment {
    /// Row r's raised cells.
    fn raised_in(&self, r: usize) -> &[(usize, usize, i32)] {
        &self.raised[self.row_from[r]..self.row_from[r + 1]]
    }
}

/// The representative of v's set in a union-find forest.
fn root(parent: &mut [usize], mut v: usize) -> usize {
    while parent[v] != v {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    v
}

/// Merge the sets of a and b (the smaller representative stays, so roots are deterministic).
fn join(parent: &mut [usize], a: usize, b: usize) {
    let (a, b) = (root(parent, a), root(parent, b));
    parent[a.max(b)] = a.min(b);
}

/// Groups of test and gold nodes linked by candidate pairs (connected components).
fn components(p: &Problem) -> Vec<(Vec<usize>, Vec<usize>)> {
    // Union-find over test nodes 0..n1 and gold nodes n1..n1+n2.
    let mut parent: Vec<usize> = (0..p.n1 + p.n2).collect();
    for i in 0..p.n1 {
        for &x in p.cand(i) {
            join(&mut parent, i, p.n1 + x as usize);
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

/// The relation pairs that take shares, by (test relation, source gold node, target gold
/// node); those settled by their source pair instead; and which test nodes start a relation.
fn relation_pairs(p: &Problem) -> (Vec<RelationPair>, Vec<Settled>, Vec<bool>) {
    let (mut pairs, mut settled) = (Vec::new(), Vec::new());
    let mut source = vec![false; p.n1];
    let settled_with_sources = p.settled_with_sources();
    p.relation_pairs(|a, role, i, k, x, y, copies| {
        source[i] = true;
        if settled_with_sources(role, i, k, x, y) {
            settled.push(Settled {
                cell: (i * p.n2 + x) as u32,
                k: k as u32,
                y: y as u32,
                copies: f64::from(copies),
            });
            return;
        }
        pairs.push(RelationPair {
            a: a as u32,
            role,
            i: i as u32,
            k: k as u32,
            x: x as u32,
            y: y as u32,
            copies: f64::from(copies),
        })
    });
    pairs.sort_by_key(|q| (q.a, q.x, q.y));
    (pairs, settled, source)
}

/// Relation pairs in `order` (position, pair) cut into segments: consecutive pairs of one
/// test relation at one gold node, the source's (`source`) or the target's.
fn segments<'q>(
    order: impl Iterator<Item = (u32, &'q RelationPair)>,
    source: bool,
) -> Vec<Segment> {
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
}

/// Target segments meeting at one node pair, for `update_earnings` to match: the segments
/// ordered by node pair, and the ranges of that order sharing one.
fn meets(targets: &[Segment]) -> (Vec<(u32, u32)>, Vec<u32>) {
    let key = |n: u32| (targets[n as usize].node, targets[n as usize].gold);
    let mut order: Vec<u32> = (0..targets.len() as u32).collect();
    order.sort_by_key(|&n| (key(n), n));
    let mut meets: Vec<(u32, u32)> = Vec::new();
    for (m, &n) in order.iter().enumerate() {
        match meets.last_mut() {
            Some(g) if key(order[g.0 as usize]) == key(n) => g.1 = m as u32 + 1,
            _ => meets.push((m as u32, m as u32 + 1)),
        }
    }
    (meets, order)
}

/// Per class of test nodes, the gold nodes by unary value, most first (then ascending), and
/// how many gold nodes earn 0, 1, 2 and 3 unary triples.
fn unary_orders(p: &Problem) -> (Vec<Vec<u32>>, Vec<[u32; 4]>) {
    p.members
        .iter()
        .map(|m| {
            let unary = p.unary_row(m[0] as usize);
            let mut order: Vec<u32> = (0..p.n2 as u32).collect();
            order.sort_by_key(|&x| (std::cmp::Reverse(unary[x as usize]), x));
            let mut count = [0u32; 4];
            for &u in unary.iter().filter(|u| (0..4).contains(*u)) {
                count[u as usize] += 1;
            }
            (order, count)
        })
        .unzip()
}

impl<'a> Search<'a> {
    fn new(p: &'a Problem, start: &[i32], start_score: i64, budget: u64, work_limit: u64) -> Self {
        let (pairs, settled, source) = relation_pairs(p);
        let mut by_target: Vec<u32> = (0..pairs.len() as u32).collect();
        by_target.sort_by_key(|&n| {
            let q = &pairs[n as usize];
            (q.a, q.y, q.x)
        });
        let sources = segments(pairs.iter().enumerate().map(|(n, q)| (n as u32, q)), true);
        let targets = segments(
            by_target
                .iter()
                .enumerate()
                .map(|(n, &q)| (n as u32, &pairs[q as usize])),
            false,
        );
        let (meets, meet_order) = meets(&targets);
        let groups = components(p);
        let (by_unary, class_count) = unary_orders(p);
        Search {
            meets,
            meet: Meet::default(),
            meet_order,
            p,
            lambda: vec![0.5; pairs.len()],
            direction: vec![0.0; pairs.len()],
            share: vec![0.0; pairs.len()],
            options: Vec::new(),
            option_rows: Vec::new(),
            chosen: Vec::new(),
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
            mapping: vec![-1; p.n1],
            tried: vec![-2; p.n1],
            best: start_score,
            best_f: start.to_vec(),
            nodes: 0,
            budget,
            cells: 0,
            work_limit,
            aborted: false,
            unexplored: start_score,
            lap: Assignment::default(),
            matrix: Vec::new(),
            dual: vec![f64::NAN; p.n1 + p.n2],
            trail: Vec::new(),
            floor: vec![0.0; groups.len()],
            components: groups,
            climber: Climber::new(p),
            by_unary,
            class_count,
            source,
            settled,
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
        self.cells += (p.n1 * n2 + self.pairs.len() + self.settled.len()) as u64;
        for i in 0..p.n1 {
            for (e, &u) in self.earn[i * n2..(i + 1) * n2]
                .iter_mut()
                .zip(p.unary_row(i))
            {
                *e = f64::from(u);
            }
        }
        // Below a node that rules the target pair out, the relation is matched by no mapping.
        for s in &self.settled {
            if self.open(s.k as usize, s.y as usize) {
                self.earn[s.cell as usize] += s.copies;
            }
        }
        for q in 0..self.pairs.len() {
            self.share[q] = self.source_share(q).unwrap_or(f64::NAN);
        }
        let open = |share: f64| !share.is_nan();
        for n in 0..self.sources.len() {
            let s = self.sources[n];
            let top = largest((s.from..s.to).filter_map(|q| {
                let share = self.share[q as usize];
                open(share).then(|| (share * self.pairs[q as usize].copies, q))
            }));
            self.payer_src[n] = top.1;
            self.earn[s.node as usize * n2 + s.gold as usize] += top.0;
        }
        let mut options = std::mem::take(&mut self.options);
        let mut rows = std::mem::take(&mut self.option_rows);
        let mut chosen = std::mem::take(&mut self.chosen);
        for g in 0..self.meets.len() {
            let (from, to) = self.meets[g];
            options.clear();
            rows.clear();
            for m in from..to {
                let s = self.targets[self.meet_order[m as usize] as usize];
                let start = options.len();
                for m in s.from..s.to {
                    let q = self.by_target[m as usize];
                    let share = self.share[q as usize];
                    if open(share) {
                        options.push(((1.0 - share) * self.pairs[q as usize].copies, q));
                    }
                }
                rows.push((start, options.len()));
            }
            let single = rows.len() == 1
                || options
                    .iter()
                    .any(|&(_, q)| self.pairs[q as usize].copies != 1.0);
            chosen.clear();
            if single {
                chosen.extend(
                    rows.iter()
                        .map(|&(a, b)| largest(options[a..b].iter().copied())),
                );
            } else {
                self.meet.solve(&self.pairs, &options, &rows, &mut chosen);
            }
            let mut total = 0.0;
            for (m, &(share, q)) in (from..to).zip(&chosen) {
                self.payer_tgt[self.meet_order[m as usize] as usize] = q;
                total += share;
            }
            let s = self.targets[self.meet_order[from as usize] as usize];
            self.earn[s.node as usize * n2 + s.gold as usize] += total;
        }
        self.options = options;
        self.option_rows = rows;
        self.chosen = chosen;
    }

    /// The relaxation's value under the current shares: one assignment per group of nodes,
    /// whose duals are kept for reduced-cost fixing; leaves its solution in `relaxed`.
    fn relax(&mut self) -> f64 {
        let (p, n1, n2) = (self.p, self.p.n1, self.p.n2);
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
        for (group, (tests, golds)) in self.components.iter().enumerate() {
            let rows: Vec<usize> = tests
                .iter()
                .copied()
                .filter(|&i| self.fixed[i] < 0)
                .collect();
            let cols: Vec<usize> = golds.iter().copied().filter(|&x| !self.used[x]).collect();
            // Read for the floor, then for the rows and columns above it.
            self.cells += 2 * (rows.len() * cols.len()) as u64;
            // Most pairs of a large group earn the same floor (two variables: their instance
            // triple), so only what they earn above it needs an assignment: the floor is paid
            // to as many pairs as the smaller side has, and the rest is a weighted matching
            // over the rows and columns that earn more somewhere. A forbidden pair is counted
            // at the floor, which only loosens the bound.
            let all = &self.earn;
            let floor = rows
                .iter()
                .flat_map(|&i| cols.iter().map(move |&x| all[i * n2 + x]))
                .fold(f64::INFINITY, f64::min);
            let floor = if floor.is_finite() {
                floor.max(0.0)
            } else {
                0.0
            };
            value += floor * rows.len().min(cols.len()) as f64;
            self.floor[group] = floor;
            let above = |i: usize, x: usize| (earn(i, x) - floor).max(0.0);
            let mut col_hit = vec![false; n2];
            let rows: Vec<usize> = rows
                .into_iter()
                .filter(|&i| {
                    let mut hit = false;
                    for &x in &cols {
                        if above(i, x) > SLACK {
                            col_hit[x] = true;
                            hit = true;
                        }
                    }
                    hit
                })
                .collect();
            let cols: Vec<usize> = cols.into_iter().filter(|&x| col_hit[x]).collect();
            // Nodes outside the matching have no dual: no pair of theirs is fixed by it.
            for &i in tests {
                self.dual[i] = f64::NAN;
            }
            for &x in golds {
                self.dual[n1 + x] = f64::NAN;
            }
            // The assignment's rows are the smaller side; `dual` is indexed by test node, or
            // by n1 + gold node.
            let by_test = rows.len() <= cols.len();
            let (small, large): (Vec<usize>, Vec<usize>) = if by_test {
                (rows, cols.iter().map(|&x| n1 + x).collect())
            } else {
                (cols.iter().map(|&x| n1 + x).collect(), rows)
            };
            let e = |a: usize, b: usize| {
                if by_test {
                    above(a, b - n1)
                } else {
                    above(b, a - n1)
                }
            };
            self.matrix.clear();
            for &a in &small {
                self.matrix.extend(large.iter().map(|&b| e(a, b)));
            }
            let to = self.lap.solve(small.len(), large.len(), &self.matrix);
            for (r, &a) in small.iter().enumerate() {
                self.dual[a] = self.lap.row_dual(r);
            }
            for (c, &b) in large.iter().enumerate() {
                self.dual[b] = self.lap.col_dual(c);
            }
            for (r, &c) in to.iter().enumerate() {
                let (a, b) = (small[r], large[c]);
                value += e(a, b);
                pairs.push(if by_test { (a, b - n1) } else { (b, a - n1) });
            }
        }
        for (i, x) in pairs {
            if !self.forbidden[i * n2 + x] {
                self.relaxed[i] = x as i32;
            }
        }
        value
    }

    /// One step towards shares that lower the relaxation's value, along the subgradient plus
    /// [`MOMENTUM`] times the last step's direction; false when no share can move.
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
        if g.iter().all(|&v| v == 0.0) {
            return false;
        }
        for ((d, &gq), &l) in self.direction.iter_mut().zip(&g).zip(&self.lambda) {
            *d = gq + MOMENTUM * *d;
            // A share at 0 or 1 that the direction pushes further out stays where it is.
            if (l <= 0.0 && *d > 0.0) || (l >= 1.0 && *d < 0.0) {
                *d = 0.0;
            }
        }
        let norm: f64 = self.direction.iter().map(|v| v * v).sum();
        if norm == 0.0 {
            return false;
        }
        let t = size * (value - self.best as f64).max(1.0) / norm;
        for (l, d) in self.lambda.iter_mut().zip(&self.direction) {
            *l = (*l - t * d).clamp(0.0, 1.0);
        }
        true
    }

    /// Bound the current node by up to `steps` subgradient steps, keeping every relaxed
    /// solution that scores better; its best bound.
    fn bound(&mut self, steps: usize) -> f64 {
        let mut bound = f64::INFINITY;
        self.direction.fill(0.0);
        let (mut size, mut stale) = (1.0, 0);
        for _ in 0..steps {
            self.update_earnings();
            let value = self.relax();
            self.fix_by_reduced_cost(value);
            self.keep_if_better();
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
            if self.over_work() {
                self.aborted = true;
                break;
            }
        }
        if !self.closed(bound) {
            // The relaxed solution is often a few moves from a better mapping.
            self.alternate();
            self.keep_mapping();
            let mut work = Work::new(self.work_limit.saturating_sub(self.work()));
            self.climber.climb_from(&self.mapping, &mut work);
            self.cells += work.done;
            if self.climber.score > self.best {
                self.best = self.climber.score;
                self.best_f.copy_from_slice(&self.climber.f);
            }
        }
        bound
    }

    /// Forbid every open pair that no mapping better than the best can use: the assignment
    /// duals bound what the relaxation is worth with that pair forced (its value minus the
    /// pair's reduced cost), and a pair forced below the best plus one is dead. Recorded on the
    /// trail, which the search node undoes when it returns.
    fn fix_by_reduced_cost(&mut self, value: f64) {
        let slack = value - (self.best as f64 + 1.0 - SLACK);
        if slack <= 0.0 {
            return;
        }
        let n2 = self.p.n2;
        self.cells += (self.p.n1 * n2) as u64;
        for ((tests, golds), floor) in self.components.iter().zip(&self.floor) {
            for &i in tests.iter().filter(|&&i| self.fixed[i] < 0) {
                for &x in golds.iter().filter(|&&x| !self.used[x]) {
                    let q = i * n2 + x;
                    if self.forbidden[q] || self.earn[q] <= 0.0 {
                        continue;
                    }
                    // NaN (no dual) compares false.
                    if self.dual[i] + self.dual[self.p.n1 + x] - (self.earn[q] - floor) > slack {
                        self.forbidden[q] = true;
                        self.trail.push(q);
                    }
                }
            }
        }
    }

    /// Score the relaxed solution as a mapping (the first test node keeps a gold node several
    /// picked) and keep it if it beats the best.
    fn keep_if_better(&mut self) {
        let mut taken = vec![false; self.p.n2];
        self.mapping.copy_from_slice(&self.relaxed);
        for x in self.mapping.iter_mut().filter(|x| **x >= 0) {
            if std::mem::replace(&mut taken[*x as usize], true) {
                *x = -1;
            }
        }
        // At the root, where a good mapping early saves the most search, every new image of
        // the predicates is worth improving; below it, once per search node (see `bound`).
        if self.nodes == 1
            && self
                .mapping
                .iter()
                .zip(&self.tried)
                .zip(&self.source)
                .any(|((a, b), &s)| s && a != b)
        {
            self.tried.copy_from_slice(&self.mapping);
            self.alternate();
        }
        self.keep_mapping();
    }

    /// Keep `mapping` as the best if it scores more.
    fn keep_mapping(&mut self) {
        let score = self.p.score_of(&self.mapping);
        if score > self.best {
            self.best = score;
            self.best_f.copy_from_slice(&self.mapping);
        }
    }

    /// Improve `mapping` by turns: the test nodes that start no relation (a network's
    /// variables) take their best images given the others', then those that do (its
    /// predicates) given theirs. Relations only join the two sides, so each turn is one
    /// assignment problem solved exactly and the score never drops; stops when a round gains
    /// nothing. (The relaxed solution's variables follow shares, not the mapping.)
    fn alternate(&mut self) {
        let mut best = (self.p.score_of(&self.mapping), self.mapping.clone());
        for _ in 0..MAX_ROUNDS {
            self.reassign(false);
            self.reassign(true);
            let now = self.p.score_of(&self.mapping);
            if now <= best.0 {
                break;
            }
            best = (now, self.mapping.clone());
        }
        self.mapping.copy_from_slice(&best.1);
    }

    /// Re-map the test nodes on one side (`sources`: those that start a relation) to their
    /// best images given the other side's, which stay. The table of what each pair would
    /// earn is its unary triples plus the relation triples the other side's images give, and
    /// those are few: it is read from the class lists and the raised cells, never written out
    /// whole (a dense table cost a third of the root's time).
    fn reassign(&mut self, sources: bool) {
        let t = self.reassignment(sources);
        // Most pairs earn the same few triples (two variables: their instance triple), so
        // the pairs earning more are few: a sparse matching over them, then the rest take what
        // is left. Not always the best assignment (a row left over may only find columns
        // below the common value), which `alternate` tolerates: it keeps its best round.
        let common = self.common_value(&t);
        let (edges, walked) = self.edges_above(&t, common);
        let above: usize = edges.iter().map(Vec::len).sum();
        let (rows, nc) = (t.rows.len(), t.cols.len());
        self.cells += (self.p.n1 + self.p.n2 + t.held.len() * rows + t.hits + walked) as u64;
        for &k in &t.rows {
            self.mapping[k] = -1;
        }
        if above <= 8 * (rows + nc) {
            self.assign_sparse(&t, &edges, walked);
        } else {
            self.assign_dense(&t);
        }
    }

    /// The table [`Search::reassign`] solves for one side: its rows and columns, and the
    /// cells the other side's images raise above their unary value.
    fn reassignment(&self, sources: bool) -> Reassignment {
        let (p, n2) = (self.p, self.p.n2);
        let side = |i: usize| self.source[i] == sources;
        // Gold nodes the other side holds are out; the others are the columns, ascending.
        let mut col_at = vec![0usize; n2];
        for (i, &x) in self.mapping.iter().enumerate() {
            if !side(i) && x >= 0 {
                col_at[x as usize] = usize::MAX;
            }
        }
        let held: Vec<usize> = (0..n2).filter(|&x| col_at[x] == usize::MAX).collect();
        let cols: Vec<usize> = (0..n2).filter(|&x| col_at[x] != usize::MAX).collect();
        for (c, &x) in cols.iter().enumerate() {
            col_at[x] = c;
        }
        let rows: Vec<usize> = (0..p.n1).filter(|&i| side(i)).collect();
        let mut row_at = vec![usize::MAX; p.n1];
        for (r, &k) in rows.iter().enumerate() {
            row_at[k] = r;
        }
        let mut hits: Vec<(usize, usize)> = Vec::new();
        for i in (0..p.n1).filter(|&i| !side(i) && self.mapping[i] >= 0) {
            p.adj(i, self.mapping[i] as usize, |k, y| {
                if row_at[k] != usize::MAX && col_at[y] != usize::MAX {
                    hits.push((row_at[k], col_at[y]));
                }
            });
        }
        hits.sort_unstable();
        let mut raised: Vec<(usize, usize, i32)> = Vec::new();
        for &(r, c) in &hits {
            match raised.last_mut() {
                Some(e) if (e.0, e.1) == (r, c) => e.2 += 1,
                _ => raised.push((r, c, p.unary(rows[r], cols[c]) + 1)),
            }
        }
        let mut row_from = vec![0usize; rows.len() + 1];
        for &(r, _, _) in &raised {
            row_from[r + 1] += 1;
        }
        for r in 0..rows.len() {
            row_from[r + 1] += row_from[r];
        }
        Reassignment {
            rows,
            cols,
            col_at,
            held,
            raised,
            row_from,
            hits: hits.len(),
        }
    }

    /// The value most cells of the table hold (0 to 3, the least on a tie). It is counted per
    /// class of rows: its whole row, less the held columns and the raised cells.
    fn common_value(&self, t: &Reassignment) -> i32 {
        let p = self.p;
        let bucket = |v: i32| (0..4).contains(&v).then_some(v as usize);
        let mut count = [0i64; 4];
        let mut classes: Vec<u32> = t.rows.iter().map(|&k| p.class[k]).collect();
        classes.sort_unstable();
        for group in classes.chunk_by(|a, b| a == b) {
            let c = group[0] as usize;
            let unary = p.unary_row(p.members[c][0] as usize);
            let mut h = self.class_count[c].map(i64::from);
            for b in t.held.iter().filter_map(|&x| bucket(unary[x])) {
                h[b] -= 1;
            }
            for (total, v) in count.iter_mut().zip(h) {
                *total += group.len() as i64 * v;
            }
        }
        for &(r, c, v) in &t.raised {
            if let Some(b) = bucket(p.unary(t.rows[r], t.cols[c])) {
                count[b] -= 1;
            }
            if let Some(b) = bucket(v) {
                count[b] += 1;
            }
        }
        (0..4)
            .max_by_key(|&v| (count[v], std::cmp::Reverse(v)))
            .unwrap_or(0) as i32
    }

    /// Per row, the cells above `common` as (column, value above it), by column: its raised
    /// cells and the head of its class's order of unary value. Also the list entries walked.
    fn edges_above(&self, t: &Reassignment, common: i32) -> (Vec<Vec<(usize, f64)>>, usize) {
        let p = self.p;
        let mut edges: Vec<Vec<(usize, f64)>> = vec![Vec::new(); t.rows.len()];
        let mut walked = 0;
        for (r, list) in edges.iter_mut().enumerate() {
            let mine = t.raised_in(r);
            let unary = p.unary_row(t.rows[r]);
            list.extend(
                mine.iter()
                    .filter(|e| e.2 > common)
                    .map(|e| (e.1, f64::from(e.2 - common))),
            );
            for &x in self.by_unary[p.class[t.rows[r]] as usize].iter() {
                let x = x as usize;
                walked += 1;
                if unary[x] <= common {
                    break;
                }
                let c = t.col_at[x];
                if c != usize::MAX && mine.binary_search_by_key(&c, |e| e.1).is_err() {
                    list.push((c, f64::from(unary[x] - common)));
                }
            }
            list.sort_unstable_by_key(|e| e.0);
        }
        (edges, walked)
    }

    /// Map the rows by a sparse matching over the cells above the common value; a row left
    /// over takes its best free column. `walked` carries the entries already walked, which
    /// are counted again with the ones walked here.
    fn assign_sparse(&mut self, t: &Reassignment, edges: &[Vec<(usize, f64)>], mut walked: usize) {
        let p = self.p;
        let col_of = sparse_matching(t.cols.len(), edges);
        let mut taken = vec![false; t.cols.len()];
        for (r, c) in col_of.iter().enumerate() {
            if let Some(c) = *c {
                taken[c] = true;
                self.mapping[t.rows[r]] = t.cols[c] as i32;
            }
        }
        // A row left over takes its best free column, the first of the best: the best of
        // its raised cells, or the first free column in its class's order of unary value.
        for (r, c) in col_of.iter().enumerate() {
            if c.is_some() {
                continue;
            }
            let (k, mine) = (t.rows[r], t.raised_in(r));
            let unary = p.unary_row(k);
            let plain_best = self.by_unary[p.class[k] as usize]
                .iter()
                .map(|&x| (unary[x as usize], t.col_at[x as usize]))
                .inspect(|_| walked += 1)
                .find(|&(_, c)| {
                    c != usize::MAX && !taken[c] && mine.binary_search_by_key(&c, |e| e.1).is_err()
                });
            let pick = mine
                .iter()
                .filter(|e| !taken[e.1])
                .map(|e| (e.2, e.1))
                .chain(plain_best)
                .max_by_key(|&(value, c)| (value, std::cmp::Reverse(c)));
            if let Some((_, c)) = pick {
                taken[c] = true;
                self.mapping[k] = t.cols[c] as i32;
            }
        }
        self.cells += walked as u64;
    }

    /// Map the rows by an exact assignment over the whole table, written out.
    fn assign_dense(&mut self, t: &Reassignment) {
        let (rows, nc) = (t.rows.len(), t.cols.len());
        self.cells += (rows * nc) as u64;
        let mut w = vec![0.0f64; rows * nc];
        for (r, &k) in t.rows.iter().enumerate() {
            let unary = self.p.unary_row(k);
            for (c, &y) in t.cols.iter().enumerate() {
                w[r * nc + c] = f64::from(unary[y]);
            }
        }
        for &(r, c, v) in &t.raised {
            w[r * nc + c] = f64::from(v);
        }
        for (r, c) in self.lap.solve_either(rows, nc, &w).into_iter().enumerate() {
            if let Some(c) = c {
                self.mapping[t.rows[r]] = t.cols[c] as i32;
            }
        }
    }

    /// Work done so far, deterministic and in proportion to time: table cells written or read,
    /// list entries walked and columns scanned by the assignments.
    fn work(&self) -> u64 {
        self.cells + self.lap.scanned + self.meet.lap.scanned
    }

    /// Past the work limit, or past the recipe's time budget (which then refuses the recipe).
    fn over_work(&self) -> bool {
        self.work() > self.work_limit || crate::base::budget::spent()
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

    /// Look for a better mapping around the best one (a large-neighbourhood search, once, at
    /// the root): for each predicate, free it and the predicates near it (see
    /// [`NEIGHBOURHOOD_HOPS`]), pin every other predicate to its image in the best mapping,
    /// and take a few relaxation steps there (each relaxed solution is scored
    /// and improved as at the root). Pinned, the relaxation is nearly exact, so its solutions
    /// are the best rearrangements of that neighbourhood: on different recipes of one family
    /// the best mapping often differs from the optimum by a stage of several predicates that
    /// no single move or swap reaches.
    fn improve_by_neighbourhoods(&mut self) {
        let (p, n1) = (self.p, self.p.n1);
        let shares = self.lambda.clone();
        // Centres are the predicates the best mapping maps (every other one lies near one of
        // them): a network of thousands of actions against a gold network of fifty maps fifty.
        let centres: Vec<usize> = (0..n1)
            .filter(|&i| self.source[i] && self.fixed[i] < 0 && self.best_f[i] >= 0)
            .collect();
        for i in centres {
            if self.aborted {
                break;
            }
            let mut free = vec![false; n1];
            free[i] = true;
            for _ in 0..NEIGHBOURHOOD_HOPS {
                let now: Vec<usize> = (0..n1).filter(|&j| free[j] && self.source[j]).collect();
                for k in now {
                    for &v in p.linked(k) {
                        for &j in p.linked(v as usize) {
                            free[j as usize] = true;
                        }
                    }
                }
            }
            let mut pinned = Vec::new();
            for (j, &near) in free.iter().enumerate() {
                if near || !self.source[j] || self.fixed[j] >= 0 {
                    continue;
                }
                let x = self.best_f[j];
                if x >= 0 && !self.used[x as usize] {
                    self.fixed[j] = x;
                    self.used[x as usize] = true;
                    pinned.push(j);
                }
            }
            let mark = self.trail.len();
            self.lambda.copy_from_slice(&shares);
            self.bound(NEIGHBOURHOOD_STEPS);
            for q in self.trail.drain(mark..) {
                self.forbidden[q] = false;
            }
            for j in pinned {
                self.used[self.fixed[j] as usize] = false;
                self.fixed[j] = -1;
            }
        }
        // Back to the root's relaxation, which branching reads.
        self.lambda.copy_from_slice(&shares);
        self.update_earnings();
        self.relax();
    }

    /// Search below the current path; a child's mappings are some of its parent's, so the
    /// parent's bound holds for it too.
    fn node(&mut self, steps: usize, parent_bound: f64) {
        self.nodes += 1;
        let mark = self.trail.len();
        self.search_below(steps, parent_bound);
        for q in self.trail.drain(mark..) {
            self.forbidden[q] = false;
        }
    }

    fn search_below(&mut self, steps: usize, parent_bound: f64) {
        let bound = self.bound(steps).min(parent_bound);
        if self.nodes == 1 && !self.closed(bound) {
            self.improve_by_neighbourhoods();
        }
        if self.closed(bound) {
            return;
        }
        let Some((i, x)) = self.branch_pair() else {
            return;
        };
        let shares = self.lambda.clone();
        let q = i * self.p.n2 + x;
        for fix in [true, false] {
            if self.nodes >= self.budget || self.over_work() {
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

impl Assignment {
    /// The last solution's dual of column c (what c is worth to any row; zero for columns
    /// left free), so that earn(r, c) ≤ row dual + column dual.
    fn col_dual(&self, c: usize) -> f64 {
        debug_assert!(c + 1 < self.v.len());
        -self.v[c + 1]
    }

    /// The last solution's dual of row r.
    fn row_dual(&self, r: usize) -> f64 {
        -self.u[r + 1]
    }
}

/// The largest share and its relation pair (the first on a tie, even at zero: a payer lets the
/// subgradient move its share), or `(0, NO_PAYER)` when there is none.
fn largest(shares: impl Iterator<Item = (f64, u32)>) -> (f64, u32) {
    shares.fold((0.0, NO_PAYER), |top, (v, q)| {
        if top.1 == NO_PAYER || v > top.0 {
            (v, q)
        } else {
            top
        }
    })
}

/// A matching of rows to columns of the largest total gain, over few positive-gain edges
/// (`edges[r]`: column and gain); each row's column, if any. The edges usually fall apart into
/// many small groups (a variable's votes for the images of its predicates' arguments), matched
/// one by one by [`matching_in_part`].
fn sparse_matching(cols: usize, edges: &[Vec<(usize, f64)>]) -> Vec<Option<usize>> {
    let rows = edges.len();
    // Union-find over rows 0..rows and columns rows..rows + cols.
    let mut parent: Vec<usize> = (0..rows + cols).collect();
    for (r, list) in edges.iter().enumerate() {
        for &(c, _) in list {
            join(&mut parent, r, rows + c);
        }
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); rows + cols];
    for r in 0..rows {
        let k = root(&mut parent, r);
        members[k].push(r);
    }
    let mut col_of = vec![None; rows];
    let mut local_col = vec![usize::MAX; cols];
    for part in members.iter().filter(|m| !m.is_empty()) {
        // The part's columns, numbered in order of appearance.
        let mut part_cols: Vec<usize> = Vec::new();
        let local: Vec<Vec<(usize, f64)>> = part
            .iter()
            .map(|&r| {
                edges[r]
                    .iter()
                    .map(|&(c, g)| {
                        if local_col[c] == usize::MAX {
                            local_col[c] = part_cols.len();
                            part_cols.push(c);
                        }
                        (local_col[c], g)
                    })
                    .collect()
            })
            .collect();
        for (&r, c) in part.iter().zip(matching_in_part(part_cols.len(), &local)) {
            col_of[r] = c.map(|c| part_cols[c]);
        }
    }
    col_of
}

/// [`sparse_matching`] of one group, by successive best augmenting paths found by
/// Bellman–Ford on the alternating graph.
fn matching_in_part(cols: usize, edges: &[Vec<(usize, f64)>]) -> Vec<Option<usize>> {
    let rows = edges.len();
    let mut col_of: Vec<Option<usize>> = vec![None; rows];
    let mut row_of: Vec<Option<usize>> = vec![None; cols];
    let mut held = vec![0.0f64; rows];
    loop {
        // gain[r]: best gain of an alternating path from a free row that enters row r.
        let mut gain: Vec<f64> = col_of
            .iter()
            .map(|c| if c.is_none() { 0.0 } else { f64::NEG_INFINITY })
            .collect();
        let mut came: Vec<Option<(usize, usize)>> = vec![None; rows];
        // A row whose gain has not risen since its edges were last followed cannot raise
        // another: only the others are followed again.
        let mut risen: Vec<bool> = gain.iter().map(|&g| g > f64::NEG_INFINITY).collect();
        for _ in 0..=rows {
            let mut changed = false;
            for r in 0..rows {
                if !std::mem::replace(&mut risen[r], false) {
                    continue;
                }
                for &(c, g) in &edges[r] {
                    if let Some(r2) = row_of[c].filter(|&r2| r2 != r) {
                        let via = gain[r] + g - held[r2];
                        if via > gain[r2] + SLACK {
                            gain[r2] = via;
                            came[r2] = Some((r, c));
                            risen[r2] = true;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let mut end: Option<(f64, usize, usize)> = None;
        for r in 0..rows {
            for &(c, g) in edges[r].iter().filter(|&&(c, _)| row_of[c].is_none()) {
                let total = gain[r] + g;
                if total > SLACK && end.is_none_or(|e| total > e.0 + SLACK) {
                    end = Some((total, r, c));
                }
            }
        }
        let Some((_, mut r, mut c)) = end else {
            return col_of;
        };
        // A path visits each row once; the bound guards against float ties forming a loop.
        for _ in 0..rows {
            let gain_rc = edges[r].iter().find(|e| e.0 == c).map_or(0.0, |e| e.1);
            let previous = col_of[r];
            col_of[r] = Some(c);
            row_of[c] = Some(r);
            held[r] = gain_rc;
            match (previous, came[r]) {
                (Some(_), Some((r0, c0))) => {
                    r = r0;
                    c = c0;
                }
                _ => break,
            }
        }
    }
}

/// The best matching of a node pair's test relations to distinct gold relations (a gold
/// source and role), solved as an assignment: a variable used by many predicates meets many
/// rows (on black-bean-salad-4 against cole-slaw, capping the exact matching at four rows
/// left the root bound at 304 where the LP gives 300.8). Buffers reused between calls.
#[derive(Default)]
struct Meet {
    lap: Assignment,
    matrix: Vec<f64>,
    golds: Vec<(u32, u32)>,
    /// `option[row * golds + gold]`: index into the options, or `u32::MAX`.
    option: Vec<u32>,
    taken: Vec<bool>,
}

impl Meet {
    /// Each row's share and payer (`rows` are ranges of `options`: share and relation pair) in
    /// a matching of the largest total; a row may pay nothing. A row the assignment leaves
    /// without an option takes a free one if it has any (its share is at least zero), so that
    /// on a tie a row keeps a payer, which the subgradient needs to move its share.
    fn solve(
        &mut self,
        pairs: &[RelationPair],
        options: &[(f64, u32)],
        rows: &[(usize, usize)],
        chosen: &mut Vec<(f64, u32)>,
    ) {
        let key = |q: u32| (pairs[q as usize].x, pairs[q as usize].role);
        self.golds.clear();
        for &(_, q) in options {
            if !self.golds.contains(&key(q)) {
                self.golds.push(key(q));
            }
        }
        let (nr, nc) = (rows.len(), self.golds.len());
        self.option.clear();
        self.option.resize(nr * nc, u32::MAX);
        for (r, &(a, b)) in rows.iter().enumerate() {
            for (o, &(_, q)) in options.iter().enumerate().take(b).skip(a) {
                let c = self.golds.iter().position(|&g| g == key(q)).unwrap_or(0);
                self.option[r * nc + c] = o as u32;
            }
        }
        let value = |option: &[u32], r: usize, c: usize| match option[r * nc + c] {
            u32::MAX => 0.0,
            o => options[o as usize].0,
        };
        self.matrix.clear();
        for r in 0..nr {
            self.matrix
                .extend((0..nc).map(|c| value(&self.option, r, c)));
        }
        let col_of = self.lap.solve_either(nr, nc, &self.matrix);
        self.taken.clear();
        self.taken.resize(nc, false);
        chosen.clear();
        for (r, c) in col_of.into_iter().enumerate() {
            match c.map(|c| (c, self.option[r * nc + c])) {
                Some((c, o)) if o != u32::MAX => {
                    self.taken[c] = true;
                    chosen.push(options[o as usize]);
                }
                _ => chosen.push((0.0, NO_PAYER)),
            }
        }
        for (r, pick) in chosen.iter_mut().enumerate() {
            if pick.1 != NO_PAYER {
                continue;
            }
            if let Some(c) =
                (0..nc).find(|&c| !self.taken[c] && self.option[r * nc + c] != u32::MAX)
            {
                self.taken[c] = true;
                *pick = options[self.option[r * nc + c] as usize];
            }
        }
    }
}

/// Best assignment of every row to its own column (rows ≤ columns) by shortest augmenting
/// paths, O(rows² · columns); buffers reused between calls.
#[derive(Default)]
struct Assignment {
    /// Columns scanned over all calls: the work of [`Search::work`].
    scanned: u64,
    u: Vec<f64>,
    v: Vec<f64>,
    /// `earn` by column, for [`Assignment::solve_either`].
    by_col: Vec<f64>,
    row_of: Vec<usize>,
    way: Vec<usize>,
    min: Vec<f64>,
    tree: Vec<usize>,
    rest: Vec<usize>,
}

impl Assignment {
    /// [`Assignment::solve`] for any shape: with more rows than columns, the columns are
    /// assigned to rows instead, and the rows left over get none.
    fn solve_either(&mut self, rows: usize, cols: usize, earn: &[f64]) -> Vec<Option<usize>> {
        if rows <= cols {
            return self.solve(rows, cols, earn).into_iter().map(Some).collect();
        }
        let mut by_col = std::mem::take(&mut self.by_col);
        by_col.clear();
        by_col.extend((0..cols).flat_map(|c| earn.iter().skip(c).step_by(cols).copied()));
        let mut col_of = vec![None; rows];
        for (c, r) in self.solve(cols, rows, &by_col).into_iter().enumerate() {
            col_of[r] = Some(c);
        }
        self.by_col = by_col;
        col_of
    }

    /// The column of each row in an assignment of the largest total `earn` (rows × columns,
    /// by row).
    fn solve(&mut self, rows: usize, cols: usize, earn: &[f64]) -> Vec<usize> {
        debug_assert_eq!(earn.len(), rows * cols);
        // Minimise the negated earnings; index 0 is the virtual start row and column.
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
            // Columns in the tree (the virtual one first), and the others, ascending: each
            // scan visits only the others, in the order that breaks ties as a full scan would.
            self.tree.clear();
            self.tree.push(0);
            self.rest.clear();
            self.rest.extend(1..=cols);
            loop {
                let r0 = self.row_of[c0];
                let row = &earn[(r0 - 1) * cols..r0 * cols];
                let u0 = self.u[r0];
                let (mut delta, mut c1, mut at) = (f64::INFINITY, 0, 0);
                self.scanned += self.rest.len() as u64;
                for (n, &c) in self.rest.iter().enumerate() {
                    let reduced = -row[c - 1] - u0 - self.v[c];
                    if reduced < self.min[c] {
                        self.min[c] = reduced;
                        self.way[c] = c0;
                    }
                    if self.min[c] < delta {
                        delta = self.min[c];
                        c1 = c;
                        at = n;
                    }
                }
                for &c in &self.tree {
                    self.u[self.row_of[c]] += delta;
                    self.v[c] -= delta;
                }
                for &c in &self.rest {
                    self.min[c] -= delta;
                }
                self.rest.remove(at);
                self.tree.push(c1);
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
    use super::super::{Attribute, Relation, Triples, triples_from_text};
    use super::*;

    /// The relation pairs `settled_with_sources` accepts, as (role, test target, gold target),
    /// each target named by `names` at the position of its relation (the two sides are written
    /// alike, so a gold variable takes the name of the test variable in its place).
    fn settled(t: &Triples, g: &Triples, names: &[&str]) -> Vec<(String, String, String)> {
        let p = Problem::new(t, g);
        let test = p.settled_with_sources();
        let name = |r: &[Relation], n: usize| {
            let at = r.iter().position(|r| r.target == n).expect("a target");
            names[at].to_string()
        };
        let mut out = Vec::new();
        p.relation_pairs(|a, role, i, k, x, y, _| {
            if test(role, i, k, x, y) {
                let (tn, gn) = (name(&t.relations, k), name(&g.relations, y));
                out.push((t.relations[a].role.clone(), tn, gn));
            }
        });
        out.sort();
        out
    }

    #[test]
    fn relations_to_variables_used_once_on_both_sides_are_settled_by_their_sources() {
        // ?B/?D and ?E/?F are used once on each side; ?A/?C twice, so a pair into them can
        // meet a rival claim and stays in the relaxation.
        let (t, g) = (
            triples_from_text("(FETCH ?A ?B) (MIX ?E ?A)"),
            triples_from_text("(FETCH ?C ?D) (MIX ?F ?C)"),
        );
        // Relation targets in triple order: FETCH's two arguments, then MIX's.
        let names = ["?a", "?b", "?e", "?a"];
        assert_eq!(
            settled(&t, &g, &names),
            [
                ("arg0".to_string(), "?e".to_string(), "?e".to_string()),
                ("arg1".to_string(), "?b".to_string(), "?b".to_string()),
            ]
        );
        // A gold node where some test node earns more than the variable would (an attribute
        // it matches) is not settled: moving the variable there could cost that triple.
        let mut g2 = g.clone();
        let d = g2.relations[1].target;
        g2.attributes.push(Attribute {
            role: "mod".into(),
            node: d,
            value: "big".into(),
        });
        let mut t2 = t.clone();
        t2.instances.push("var".into());
        t2.attributes.push(Attribute {
            role: "mod".into(),
            node: t2.instances.len() - 1,
            value: "big".into(),
        });
        assert_eq!(
            settled(&t2, &g2, &names),
            [("arg0".to_string(), "?e".to_string(), "?e".to_string())]
        );
        // A source that starts two relations of the role: the variable has a rival sibling.
        let (mut t3, g3) = (
            triples_from_text("(FETCH ?A ?B)"),
            triples_from_text("(FETCH ?C ?D)"),
        );
        let b = t3.relations[1].clone();
        t3.instances.push("var".into());
        t3.relations.push(Relation {
            target: t3.instances.len() - 1,
            ..b
        });
        assert_eq!(
            settled(&t3, &g3, &["?a", "?b", "?b2"]),
            [("arg0".to_string(), "?a".to_string(), "?a".to_string())]
        );
    }

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
    fn the_work_limit_stops_the_search_with_a_valid_bound() {
        // Two networks of the same shape whose constants disagree in a pattern: the root's
        // first relaxation does not settle the pair.
        let net = |k: usize| -> String {
            (0..24)
                .map(|i| format!("(MIX ?O{i} ?O{} C{})", i + 1, (i * k) % 5))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let (t, g) = (triples_from_text(&net(1)), triples_from_text(&net(3)));
        let p = Problem::new(&t, &g);
        let start = vec![-1; p.n1];
        let free = search(&p, &start, 0, u64::MAX, u64::MAX);
        assert!(free.proven());
        // One unit of work: the root stops after its first step, unproven, its bound still
        // above every mapping (the optimum the free search proved).
        let tight = search(&p, &start, 0, u64::MAX, 1);
        assert!(!tight.proven(), "{tight:?}");
        assert!(
            tight.bound >= free.best && tight.best <= free.best,
            "{tight:?} {free:?}"
        );
    }

    #[test]
    fn sparse_matching_augments_past_the_greedy_choice() {
        // Row 0's best column is row 1's only one: the best total gives it up.
        let edges = vec![vec![(0, 3.0), (1, 2.0)], vec![(0, 2.5)], vec![]];
        assert_eq!(sparse_matching(3, &edges), vec![Some(1), Some(0), None]);
        // A row is left out rather than matched at a loss to the total.
        let edges = vec![vec![(0, 1.0)], vec![(0, 5.0)]];
        assert_eq!(sparse_matching(1, &edges), vec![None, Some(0)]);
        // Independent groups (columns 0–1 and 3) are matched each on its own, in place.
        let edges = vec![
            vec![(3, 1.0)],
            vec![(0, 3.0), (1, 2.0)],
            vec![],
            vec![(0, 2.5)],
        ];
        assert_eq!(
            sparse_matching(4, &edges),
            vec![Some(3), Some(1), None, Some(0)]
        );
    }

    #[test]
    fn meets_match_rows_to_distinct_gold_relations() {
        // Relation pairs 0 and 1 end in the same gold relation (source 0, role 1); pair 2 in
        // another (source 1).
        let pair = |x| RelationPair {
            a: 0,
            role: 1,
            i: 0,
            k: 0,
            x,
            y: 0,
            copies: 1.0,
        };
        let pairs = [pair(0), pair(0), pair(1)];
        let mut meet = Meet::default();
        let mut chosen = Vec::new();
        // Row 0 gives up its best share (0.6) so that row 1 can take the gold relation.
        let options = [(0.6, 0), (0.5, 2), (0.9, 1)];
        meet.solve(&pairs, &options, &[(0, 2), (2, 3)], &mut chosen);
        assert_eq!(chosen, vec![(0.5, 2), (0.9, 1)]);
        // More rows than gold relations: one row pays, the others pay nothing.
        let options = [(0.2, 0), (0.7, 1), (0.4, 0)];
        meet.solve(&pairs, &options, &[(0, 1), (1, 2), (2, 3)], &mut chosen);
        assert_eq!(chosen, vec![(0.0, NO_PAYER), (0.7, 1), (0.0, NO_PAYER)]);
        // Zero shares still name their payers.
        let options = [(0.0, 0), (0.0, 2)];
        meet.solve(&pairs, &options, &[(0, 1), (1, 2)], &mut chosen);
        assert_eq!(chosen, vec![(0.0, 0), (0.0, 2)]);
    }

    #[test]
    fn assignment_takes_the_best_total() {
        let earn = [[3.0, 1.0, 0.0], [3.0, 2.0, 0.0]];
        let cols = Assignment::default().solve(2, 3, earn.as_flattened());
        assert_eq!(cols, vec![0, 1]);
        let swapped = [earn[1], earn[0]];
        let cols = Assignment::default().solve(2, 3, swapped.as_flattened());
        assert_eq!(cols, vec![1, 0]);
    }
}
