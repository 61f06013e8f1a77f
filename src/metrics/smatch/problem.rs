//! What a pair of triple sets fixes before any mapping is tried: the triples each test node
//! matches on its own at each gold node, its candidate gold nodes, and the relations along
//! which two mapped nodes earn together.
//!
//! Nothing here grows with test nodes × gold nodes. Test nodes with the same label, matching
//! attributes and self-loops share one row of unary triples (a predicted network of 100,000
//! actions has a few such classes per primitive), and relation triples are generated on demand
//! from the nodes' incident relations, which are few.

use super::Triples;
use super::cpython::set_order;
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::Hash;

/// Rows of items per node, stored flat.
#[derive(Clone)]
pub(super) struct Rows<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> Rows<T> {
    /// `(node, item)` pairs into rows of `n` nodes, each row keeping the pairs' order.
    fn new(n: usize, pairs: &[(u32, T)]) -> Self {
        let mut start = vec![0u32; n + 1];
        for &(i, _) in pairs {
            start[i as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut items = Vec::with_capacity(pairs.len());
        // Placeholder values are overwritten below; `T: Copy` keeps this cheap.
        if let Some(&(_, first)) = pairs.first() {
            items.resize(pairs.len(), first);
        }
        for &(i, item) in pairs {
            items[fill[i as usize] as usize] = item;
            fill[i as usize] += 1;
        }
        Rows { start, items }
    }

    pub(super) fn of(&self, i: usize) -> &[T] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// A relation seen from one of its nodes: role, the other node, and whether this node is the
/// source.
type Incident = (u32, u32, bool);

/// Everything about a pair of triple sets that does not depend on the mapping.
pub(super) struct Problem {
    pub n1: usize,
    pub n2: usize,
    /// Class of each test node: same raw label, gold-matching attributes and self-loops.
    pub class: Vec<u32>,
    /// `unary[c * n2 + x]`: instance, attribute and self-loop triples matched by mapping a test
    /// node of class `c` to gold node `x`.
    unary: Vec<i32>,
    /// Test nodes of each class, ascending.
    pub members: Vec<Vec<u32>>,
    /// Per gold node, the classes earning unary triples there as `(triples, class)`: most
    /// triples first, then by first member.
    pub at_gold: Vec<Vec<(i32, u32)>>,
    /// Candidate list of each test node and the lists: gold nodes that earn something when
    /// the test node maps to them, ascending (smatch's candidate pool).
    pub cand_of: Vec<u32>,
    cands: Vec<Vec<u32>>,
    /// The same candidates as smatch.py's `set` iterates them, per test node and the lists
    /// (shared by nodes with the same label and the same insertions; see [`Touch`]).
    pub start_of: Vec<u32>,
    starts: Vec<Vec<u32>>,
    inc1: Rows<Incident>,
    inc2: Rows<Incident>,
    /// For every test node, the test nodes it shares a relation with (only then do two
    /// mappings interact), ascending.
    linked: Rows<u32>,
    /// Instance labels compared without normalisation, as the smart start does.
    pub raw1: Vec<u32>,
    pub raw2: Vec<u32>,
    /// Upper bound from counting triples by kind alone.
    pub multiset_bound: i64,
}

/// What adds gold nodes to a test node's candidate set in `compute_pool`, after its label:
/// one of its attributes (by key), or a relation of a role it is the source, target or both of.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Touch {
    Attribute(u32),
    Source(u32),
    Target(u32),
    Loop(u32),
}

/// smatch's comparison key: lower-case, trailing underscores removed.
pub(super) fn normalize(s: &str) -> String {
    normalized(s).into_owned()
}

/// [`normalize`] without a copy for a text already lower-case ASCII (what the reader makes of
/// every label and value): only its trailing underscores are cut.
fn normalized(s: &str) -> Cow<'_, str> {
    match s.bytes().any(|b| !b.is_ascii() || b.is_ascii_uppercase()) {
        true => Cow::Owned(s.to_lowercase().trim_end_matches('_').to_string()),
        false => Cow::Borrowed(s.trim_end_matches('_')),
    }
}

/// Names from the text (keys a file chooses) keep the standard, seeded hasher; the tables keyed
/// by the numbers this module hands out use FxHash, several times cheaper on small keys.
#[derive(Clone, Default)]
struct Interner(HashMap<String, u32>);

impl Interner {
    fn id(&mut self, s: String) -> u32 {
        let next = self.0.len() as u32;
        *self.0.entry(s).or_insert(next)
    }
}

/// Numbers for the test side's strings after the gold side's: a string the gold side has keeps
/// its number, the others are numbered on from the gold side's count, so equal strings get
/// equal numbers without the gold side's table being copied.
struct After<'g> {
    gold: &'g Interner,
    more: Interner,
}

impl<'g> After<'g> {
    fn new(gold: &'g Interner) -> After<'g> {
        After {
            gold,
            more: Interner::default(),
        }
    }

    /// The number of `s`, copied only when neither side has it yet.
    fn id(&mut self, s: &str) -> u32 {
        if let Some(&n) = self.gold.0.get(s).or_else(|| self.more.0.get(s)) {
            return n;
        }
        let next = (self.gold.0.len() + self.more.0.len()) as u32;
        self.more.0.insert(s.to_string(), next);
        next
    }
}

/// Sizes of the groups of identical triples (same kind, same nodes), per kind, largest first.
fn groups<K: Hash + Eq, N: Hash + Eq>(
    triples: impl Iterator<Item = (K, N)>,
) -> FxHashMap<K, Vec<i64>> {
    let mut same: FxHashMap<(K, N), i64> = FxHashMap::default();
    for t in triples {
        *same.entry(t).or_insert(0) += 1;
    }
    let mut by_kind: FxHashMap<K, Vec<i64>> = FxHashMap::default();
    for ((k, _), n) in same {
        by_kind.entry(k).or_default().push(n);
    }
    for sizes in by_kind.values_mut() {
        sizes.sort_unstable_by(|a, b| b.cmp(a));
    }
    by_kind
}

/// The most triples of one kind any mapping can match. A one-to-one mapping puts each group of
/// identical test triples against at most one group of identical gold triples, earning the
/// product of their sizes, so pairing the largest groups first bounds every mapping. (Triples
/// from the reader never repeat; hand-made ones may, and smatch counts every pair.)
/// The gold side's groups are made once per gold network ([`GoldTables`]).
fn kind_bound<N: Hash + Eq>(
    test: impl Iterator<Item = (u32, N)>,
    gold: &FxHashMap<u32, Vec<i64>>,
) -> i64 {
    groups(test)
        .iter()
        .map(|(k, a)| {
            gold.get(k)
                .map_or(0, |b| a.iter().zip(b).map(|(x, y)| x * y).sum())
        })
        .sum()
}

/// What a problem takes from the gold triples alone, made once per gold network and shared by
/// every network compared with it: its labels, attribute keys and relation roles as numbers
/// (the test side's numbered after them), the lookups classes and candidates are read from, and
/// its nodes' relations.
pub(super) struct GoldTables {
    n2: usize,
    /// Instance labels normalised, instance labels as written, attribute keys (role and value)
    /// and relation roles, each numbered.
    norm: Interner,
    raw: Interner,
    keys: Interner,
    roles: Interner,
    label2: Vec<u32>,
    raw2: Vec<u32>,
    /// Attributes as `(key, node)`.
    attr2: Vec<(u32, u32)>,
    /// Relations as `(role, source, target)`.
    rel2: Vec<(u32, usize, usize)>,
    index: GoldIndex,
    inc2: Rows<Incident>,
    /// Gold nodes by the (role, direction) of a relation they take part in.
    by_signature: FxHashMap<(u32, bool), Vec<u32>>,
    /// [`groups`] of the gold labels, attributes and relations, for [`kind_bound`].
    bound_groups: [FxHashMap<u32, Vec<i64>>; 3],
}

impl GoldTables {
    pub fn new(g: &Triples) -> GoldTables {
        let mut norm = Interner::default();
        let label2: Vec<u32> = g.instances.iter().map(|l| norm.id(normalize(l))).collect();
        let mut raw = Interner::default();
        let raw2: Vec<u32> = g.instances.iter().map(|l| raw.id(l.clone())).collect();
        let mut keys = Interner::default();
        let attr2: Vec<(u32, u32)> = g
            .attributes
            .iter()
            .map(|a| (keys.id(attribute_key(&a.role, &a.value)), a.node as u32))
            .collect();
        let mut roles = Interner::default();
        let rel2: Vec<(u32, usize, usize)> = g
            .relations
            .iter()
            .map(|r| (roles.id(normalize(&r.role)), r.source, r.target))
            .collect();
        let n2 = g.instances.len();
        let inc2 = incidence(n2, &rel2);
        let mut by_signature: FxHashMap<(u32, bool), Vec<u32>> = FxHashMap::default();
        for x in 0..n2 {
            for s in signature(&inc2, x) {
                by_signature.entry(s).or_default().push(x as u32);
            }
        }
        let bound_groups = [
            groups(label2.iter().enumerate().map(|(x, &l)| (l, x))),
            groups(attr2.iter().copied()),
            groups(rel2.iter().map(|&(r, c, d)| (r, (c, d)))),
        ];
        let mut tables = GoldTables {
            bound_groups,
            n2,
            label2,
            raw2,
            attr2,
            rel2,
            index: GoldIndex::default(),
            inc2,
            by_signature,
            norm,
            raw,
            keys,
            roles,
        };
        tables.index = GoldIndex::new(&tables);
        tables
    }
}

/// The key an attribute is matched by: its role and value, normalised.
fn attribute_key(role: &str, value: &str) -> String {
    format!("{}\0{}", normalized(role), normalized(value))
}

/// The (role, direction) pairs of a node's relations, sorted, each once.
fn signature(inc: &Rows<Incident>, i: usize) -> Vec<(u32, bool)> {
    let mut s: Vec<(u32, bool)> = inc.of(i).iter().map(|&(r, _, src)| (r, src)).collect();
    s.sort_unstable();
    s.dedup();
    s
}

/// The test side's labels, attribute keys and relation roles as numbers, numbered after the
/// gold side's so that equal strings get equal numbers.
struct Interned<'g> {
    gold: &'g GoldTables,
    /// Instance labels, normalised.
    label1: Vec<u32>,
    /// Instance labels as written.
    raw1: Vec<u32>,
    /// Attributes as `(key, node)`, the key being role and value.
    attr1: Vec<(u32, u32)>,
    /// Relations as `(role, source, target)`.
    rel1: Vec<(u32, usize, usize)>,
}

impl<'g> Interned<'g> {
    fn new(t: &Triples, gold: &'g GoldTables) -> Interned<'g> {
        let mut norm = After::new(&gold.norm);
        let label1 = t
            .instances
            .iter()
            .map(|l| norm.id(&normalized(l)))
            .collect();
        let mut raw = After::new(&gold.raw);
        let raw1 = t.instances.iter().map(|l| raw.id(l)).collect();
        let mut keys = After::new(&gold.keys);
        let attr1 = t
            .attributes
            .iter()
            .map(|a| (keys.id(&attribute_key(&a.role, &a.value)), a.node as u32))
            .collect();
        let mut roles = After::new(&gold.roles);
        let rel1 = t
            .relations
            .iter()
            .map(|r| (roles.id(&normalized(&r.role)), r.source, r.target))
            .collect();
        Interned {
            gold,
            label1,
            raw1,
            attr1,
            rel1,
        }
    }

    /// [`kind_bound`] summed over instances, attributes and relations.
    fn multiset_bound(&self) -> i64 {
        let g = self.gold;
        let [labels, attributes, relations] = &g.bound_groups;
        kind_bound(self.label1.iter().enumerate().map(|(i, &l)| (l, i)), labels)
            + kind_bound(self.attr1.iter().copied(), attributes)
            + kind_bound(self.rel1.iter().map(|&(r, a, b)| (r, (a, b))), relations)
    }
}

/// Gold nodes by what earns there on its own (a label, an attribute key, a self-loop role),
/// and the ends of gold relations by role: the lookups that classes and candidates are read
/// from.
#[derive(Default)]
struct GoldIndex {
    by_label: Vec<Vec<u32>>,
    by_key: FxHashMap<u32, Vec<u32>>,
    loops: FxHashMap<u32, Vec<u32>>,
    ends: FxHashMap<u32, Vec<(u32, u32)>>,
}

impl GoldIndex {
    fn new(g: &GoldTables) -> GoldIndex {
        let mut by_label = vec![Vec::new(); g.norm.0.len()];
        for (x, &l) in g.label2.iter().enumerate() {
            by_label[l as usize].push(x as u32);
        }
        let mut by_key: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        for &(k, x) in &g.attr2 {
            by_key.entry(k).or_default().push(x);
        }
        let mut loops: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        let mut ends: FxHashMap<u32, Vec<(u32, u32)>> = FxHashMap::default();
        for &(r, c, d) in &g.rel2 {
            if c == d {
                loops.entry(r).or_default().push(c as u32);
            }
            ends.entry(r).or_default().push((c as u32, d as u32));
        }
        GoldIndex {
            by_label,
            by_key,
            loops,
            ends,
        }
    }

    /// The gold nodes of normalised label `l` (none for a label only the test side has).
    fn of_label(&self, l: u32) -> &[u32] {
        self.by_label.get(l as usize).map_or(&[], Vec::as_slice)
    }
}

/// Each node's relations seen from it, in relation order.
fn incidence(n: usize, rels: &[(u32, usize, usize)]) -> Rows<Incident> {
    let mut pairs = Vec::with_capacity(rels.len() * 2);
    for &(r, a, b) in rels {
        pairs.push((a as u32, (r, b as u32, true)));
        pairs.push((b as u32, (r, a as u32, false)));
    }
    Rows::new(n, &pairs)
}

/// Each test node's neighbours along relations, either way, ascending and once each.
fn neighbours(n1: usize, rel1: &[(u32, usize, usize)]) -> Rows<u32> {
    let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(rel1.len() * 2);
    for &(_, a, b) in rel1 {
        pairs.push((a as u32, b as u32));
        pairs.push((b as u32, a as u32));
    }
    pairs.sort_unstable();
    pairs.dedup();
    Rows::new(n1, &pairs)
}

/// Test nodes in classes that earn the same unary triples everywhere: each node's class, the
/// members of each class, and each class's row of unary triples per gold node.
struct Classes {
    class: Vec<u32>,
    members: Vec<Vec<u32>>,
    unary: Vec<i32>,
}

impl Classes {
    /// A class is a raw label with the attribute keys and self-loop roles that match
    /// something in gold (sorted, with repeats); its row is filled when it is first met.
    fn new(s: &Interned, gold: &GoldIndex, n2: usize) -> Classes {
        let n1 = s.label1.len();
        let mut own: Vec<Vec<u32>> = vec![Vec::new(); n1];
        for &(k, i) in &s.attr1 {
            if gold.by_key.contains_key(&k) {
                own[i as usize].push(k);
            }
        }
        let mut loops: Vec<Vec<u32>> = vec![Vec::new(); n1];
        for &(r, a, b) in &s.rel1 {
            if a == b && gold.loops.contains_key(&r) {
                loops[a].push(r);
            }
        }
        let mut class_ids: FxHashMap<(u32, Vec<u32>, Vec<u32>), u32> = FxHashMap::default();
        let mut class = Vec::with_capacity(n1);
        let mut members: Vec<Vec<u32>> = Vec::new();
        let mut unary: Vec<i32> = Vec::new();
        for i in 0..n1 {
            let mut a = std::mem::take(&mut own[i]);
            let mut l = std::mem::take(&mut loops[i]);
            a.sort_unstable();
            l.sort_unstable();
            let key = (s.raw1[i], a, l);
            let c = match class_ids.get(&key) {
                Some(&c) => c,
                None => {
                    let start = unary.len();
                    unary.resize(start + n2, 0);
                    let row = &mut unary[start..];
                    let (_, a, l) = &key;
                    let earning = gold.of_label(s.label1[i]).iter();
                    let earning = earning.chain(a.iter().flat_map(|k| &gold.by_key[k]));
                    for &x in earning.chain(l.iter().flat_map(|r| &gold.loops[r])) {
                        row[x as usize] += 1;
                    }
                    let c = members.len() as u32;
                    members.push(Vec::new());
                    class_ids.insert(key, c);
                    c
                }
            };
            members[c as usize].push(i as u32);
            class.push(c);
        }
        Classes {
            class,
            members,
            unary,
        }
    }

    /// Per gold node, the classes earning unary triples there as `(triples, class)`: most
    /// triples first, then by first member.
    fn at_gold(&self, n2: usize) -> Vec<Vec<(i32, u32)>> {
        let mut at_gold: Vec<Vec<(i32, u32)>> = vec![Vec::new(); n2];
        for c in 0..self.members.len() {
            for (x, &u) in self.unary[c * n2..(c + 1) * n2].iter().enumerate() {
                if u > 0 {
                    at_gold[x].push((u, c as u32));
                }
            }
        }
        for list in &mut at_gold {
            list.sort_by_key(|&(u, c)| (std::cmp::Reverse(u), self.members[c as usize][0]));
        }
        at_gold
    }

    /// Each test node's candidates, ascending: gold nodes where it earns unary triples, or
    /// that have a relation of a role it has, in the same direction. Nodes of one class with
    /// the same roles share a list. The list of each node and the lists.
    fn candidates(
        &self,
        n2: usize,
        inc1: &Rows<Incident>,
        gold_by_sig: &FxHashMap<(u32, bool), Vec<u32>>,
    ) -> (Vec<u32>, Vec<Vec<u32>>) {
        let mut cand_ids: FxHashMap<(u32, Vec<(u32, bool)>), u32> = FxHashMap::default();
        let mut cand_of = Vec::with_capacity(self.class.len());
        let mut cands: Vec<Vec<u32>> = Vec::new();
        let mut mark = vec![false; n2];
        for (i, &c) in self.class.iter().enumerate() {
            let sig = signature(inc1, i);
            let next = cands.len() as u32;
            let c = c as usize;
            let id = match cand_ids.get(&(c as u32, sig.clone())) {
                Some(&id) => id,
                None => {
                    mark.fill(false);
                    for (x, &u) in self.unary[c * n2..(c + 1) * n2].iter().enumerate() {
                        mark[x] = u > 0;
                    }
                    for s in &sig {
                        for &x in gold_by_sig.get(s).map_or(&[][..], |v| v) {
                            mark[x as usize] = true;
                        }
                    }
                    cands.push((0..n2 as u32).filter(|&x| mark[x as usize]).collect());
                    cand_ids.insert((c as u32, sig), next);
                    next
                }
            };
            cand_of.push(id);
        }
        (cand_of, cands)
    }
}

/// Each test node's candidates in smatch.py's set order: `compute_pool` adds same-label gold
/// nodes, then per attribute the gold nodes with that attribute, then per relation the gold
/// ends of relations with that role, each in triple order; the order of adding fixes the
/// order. Nodes with the same raw label and the same insertions share a list. The list of
/// each node and the lists.
fn start_lists(s: &Interned, gold: &GoldIndex) -> (Vec<u32>, Vec<Vec<u32>>) {
    let n1 = s.label1.len();
    let mut touches: Vec<Vec<Touch>> = vec![Vec::new(); n1];
    let mut touch = |i: usize, t: Touch| {
        if !touches[i].contains(&t) {
            touches[i].push(t);
        }
    };
    for &(k, i) in &s.attr1 {
        if gold.by_key.contains_key(&k) {
            touch(i as usize, Touch::Attribute(k));
        }
    }
    for &(r, a, b) in &s.rel1 {
        if !gold.ends.contains_key(&r) {
            continue;
        }
        if a == b {
            touch(a, Touch::Loop(r));
        } else {
            touch(a, Touch::Source(r));
            touch(b, Touch::Target(r));
        }
    }
    let mut start_ids: FxHashMap<(u32, Vec<Touch>), u32> = FxHashMap::default();
    let mut starts: Vec<Vec<u32>> = Vec::new();
    let mut start_of = Vec::with_capacity(n1);
    for (i, t) in touches.into_iter().enumerate() {
        let next = starts.len() as u32;
        let id = *start_ids
            .entry((s.raw1[i], t))
            .or_insert_with_key(|(_, t)| {
                let mut added: Vec<u32> = gold.of_label(s.label1[i]).to_vec();
                for touch in t {
                    let ends = |r: u32| gold.ends[&r].iter();
                    match *touch {
                        Touch::Attribute(k) => added.extend(&gold.by_key[&k]),
                        Touch::Source(r) => added.extend(ends(r).map(|e| e.0)),
                        Touch::Target(r) => added.extend(ends(r).map(|e| e.1)),
                        Touch::Loop(r) => added.extend(ends(r).flat_map(|e| [e.0, e.1])),
                    }
                }
                starts.push(set_order(added));
                next
            });
        start_of.push(id);
    }
    (start_of, starts)
}

impl Problem {
    /// The problem of test triples `t` against gold triples `g` (tests build both at once).
    #[cfg(test)]
    pub fn new(t: &Triples, g: &Triples) -> Problem {
        Problem::against(t, &GoldTables::new(g))
    }

    /// The problem of test triples `t` against a gold network's tables, made once for it.
    pub fn against(t: &Triples, g: &GoldTables) -> Problem {
        let (n1, n2) = (t.instances.len(), g.n2);
        let s = Interned::new(t, g);
        let inc1 = incidence(n1, &s.rel1);
        let classes = Classes::new(&s, &g.index, n2);
        let at_gold = classes.at_gold(n2);
        let (cand_of, cands) = classes.candidates(n2, &inc1, &g.by_signature);
        let (start_of, starts) = start_lists(&s, &g.index);
        let multiset_bound = s.multiset_bound();
        let Classes {
            class,
            members,
            unary,
        } = classes;
        Problem {
            n1,
            n2,
            class,
            unary,
            members,
            at_gold,
            cand_of,
            cands,
            start_of,
            starts,
            inc1,
            inc2: g.inc2.clone(),
            linked: neighbours(n1, &s.rel1),
            raw1: s.raw1,
            raw2: g.raw2.clone(),
            multiset_bound,
        }
    }

    /// Instance, attribute and self-loop triples matched by mapping test node i to x.
    pub fn unary(&self, i: usize, x: usize) -> i32 {
        self.unary[self.class[i] as usize * self.n2 + x]
    }

    /// `unary(i, x)` for every gold node x.
    pub fn unary_row(&self, i: usize) -> &[i32] {
        let c = self.class[i] as usize;
        &self.unary[c * self.n2..(c + 1) * self.n2]
    }

    /// Gold nodes that earn something when test node i maps to them, ascending.
    pub fn cand(&self, i: usize) -> &[u32] {
        &self.cands[self.cand_of[i] as usize]
    }

    /// Test node i's candidates in smatch.py's iteration order.
    pub fn start_list(&self, i: usize) -> &[u32] {
        &self.starts[self.start_of[i] as usize]
    }

    pub fn linked(&self, i: usize) -> &[u32] {
        self.linked.of(i)
    }

    pub fn is_linked(&self, i: usize, j: usize) -> bool {
        self.linked(i).binary_search(&(j as u32)).is_ok()
    }

    /// Calls `f(k, y)` once per relation triple matched by mapping i → x together with k → y
    /// (k ≠ i), in no particular order; a pair may come more than once.
    pub fn adj(&self, i: usize, x: usize, mut f: impl FnMut(usize, usize)) {
        let gold = self.inc2.of(x);
        for &(r, k, src) in self.inc1.of(i) {
            if k as usize == i {
                continue;
            }
            for &(r2, y, src2) in gold {
                if r == r2 && src == src2 {
                    f(k as usize, y as usize);
                }
            }
        }
    }

    /// Calls `f(a, role, i, k, x, y, copies)` for every test relation a (numbered from 0) from i to
    /// k ≠ i and every gold relation from x to y ≠ x of the same role, identical gold relations
    /// once with their number of `copies`: the relation pairs a mapping can match besides its
    /// unary triples.
    pub fn relation_pairs(&self, mut f: impl FnMut(usize, u32, usize, usize, usize, usize, i32)) {
        let mut gold: Vec<(u32, u32, u32)> = Vec::new();
        for x in 0..self.n2 {
            for &(r, y, src) in self.inc2.of(x) {
                if src && y as usize != x {
                    gold.push((r, x as u32, y));
                }
            }
        }
        gold.sort_unstable();
        let mut by_role: FxHashMap<u32, Vec<(usize, usize, i32)>> = FxHashMap::default();
        for (n, &(r, x, y)) in gold.iter().enumerate() {
            let list = by_role.entry(r).or_default();
            match list.last_mut() {
                Some(e) if n > 0 && gold[n - 1] == (r, x, y) => e.2 += 1,
                _ => list.push((x as usize, y as usize, 1)),
            }
        }
        let mut a = 0;
        for i in 0..self.n1 {
            for &(r, k, src) in self.inc1.of(i) {
                if !src || k as usize == i {
                    continue;
                }
                for &(x, y, copies) in by_role.get(&r).map_or(&[][..], |v| v) {
                    f(a, r, i, k as usize, x, y, copies);
                }
                a += 1;
            }
        }
    }

    /// A test of relation pairs (role, i → k, x → y) that some best mapping matches whenever it
    /// maps i to x, so that a bound may count them as unary triples of (i, x): k and y take
    /// part in no other relation triple, k earns at most one unary triple anywhere and none
    /// earns more at y, and neither i nor x starts another relation of that role. Then k can
    /// always be moved to y: its relation is matched there and nowhere else, and the node it
    /// displaces matched no relation at y and loses at most the one unary triple k gains.
    /// (On a network: a variable used once, such as the container of a fetch, against one
    /// used once in gold; 42 % of the benchmark's variables are used once.)
    pub fn settled_with_sources(&self) -> impl Fn(u32, usize, usize, usize, usize) -> bool + '_ {
        let low: Vec<bool> = (0..self.members.len())
            .map(|c| {
                self.unary[c * self.n2..(c + 1) * self.n2]
                    .iter()
                    .all(|&u| u <= 1)
            })
            .collect();
        let alone = |inc: &Rows<Incident>, n: usize| inc.of(n).len() == 1;
        let one_of_role = |inc: &[Incident], role: u32| {
            inc.iter().filter(|&&(r, _, src)| src && r == role).count() == 1
        };
        move |role, i, k, x, y| {
            alone(&self.inc1, k)
                && alone(&self.inc2, y)
                && low[self.class[k] as usize]
                && self.at_gold[y].first().map_or(0, |e| e.0) <= self.unary(k, y)
                && one_of_role(self.inc1.of(i), role)
                && one_of_role(self.inc2.of(x), role)
        }
    }

    /// Relation triples matched by mapping i → x together with k → y.
    pub fn w(&self, i: usize, x: i32, k: usize, y: i32) -> i32 {
        if x < 0 || y < 0 || i == k {
            return 0;
        }
        let gold = self.inc2.of(x as usize);
        let mut n = 0;
        for &(r, k2, src) in self.inc1.of(i) {
            if k2 as usize != k {
                continue;
            }
            for &(r2, y2, src2) in gold {
                if r == r2 && src == src2 && y2 as i32 == y {
                    n += 1;
                }
            }
        }
        n
    }

    /// Matched triples of a complete mapping, from scratch (for checks).
    pub fn score_of(&self, mapping: &[i32]) -> i64 {
        let mut s = 0i64;
        for (i, &x) in mapping.iter().enumerate() {
            if x < 0 {
                continue;
            }
            s += self.unary(i, x as usize) as i64;
            self.adj(i, x as usize, |k, y| {
                if k > i && mapping[k] == y as i32 {
                    s += 1;
                }
            });
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_keys_are_lower_case_without_trailing_underscores() {
        assert!(matches!(normalized("arg0__"), Cow::Borrowed("arg0")));
        assert_eq!(normalize("Fetch-And-Proportion_"), "fetch-and-proportion");
        // Beyond ASCII: a title-case letter is not upper-case, and lower-casing changes it.
        assert_eq!(normalize("ǅemal_"), "ǆemal");
        assert_eq!(normalize("__"), "");
    }
}
