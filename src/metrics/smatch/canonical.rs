//! Colour refinement over both networks at once: an alignment found without search.
//!
//! Two networks equal up to variable renaming and line order get the same colours, node for
//! node, so pairing the nodes of each colour aligns every triple and the counting bound proves
//! F = 1.00 at once (the hill-climber can stop at 0.96 on such a pair). On networks that
//! differ, the colours of early rounds (neighbourhoods a few relations deep) still pair most
//! nodes the way an edit left them, which gives branch and bound a strong first incumbent.

use super::Triples;
use super::problem::{Problem, normalize};
use rustc_hash::FxHashMap;
use std::collections::HashMap;

/// Refinement rounds (individualisations included) at most: enough for any benchmark network
/// (a gold network's longest chain is about 50 relations), and a cap on the cost of a
/// predicted network of thousands of actions.
const MAX_ROUNDS: usize = 400;

/// The best-scoring mapping among the colour pairings of every refinement round, and its score.
pub(super) fn aligned_mapping(p: &Problem, test: &Triples, gold: &Triples) -> (Vec<i32>, i64) {
    let mut r = Refinement::new(test, gold);
    let mut best = (vec![-1; p.n1], 0i64);
    for _ in 0..MAX_ROUNDS {
        let mapping = r.pairing();
        let score = p.score_of(&mapping);
        if score > best.1 {
            best = (mapping, score);
        }
        if best.1 >= p.multiset_bound {
            break;
        }
        if !r.refine() && !r.individualise() {
            break;
        }
    }
    best
}

/// Nodes `0..n1` are the test network's, `n1..` the gold network's.
struct Refinement {
    n1: usize,
    colour: Vec<u32>,
    classes: usize,
    /// Per node, its relations.
    edges: Vec<Vec<Edge>>,
}

/// A relation seen from one end: role, whether this end is the source, and the other end (a
/// node, or its colour during refinement).
type Edge = (u32, bool, u32);

impl Refinement {
    fn new(test: &Triples, gold: &Triples) -> Self {
        let n1 = test.instances.len();
        let n = n1 + gold.instances.len();
        let mut words: HashMap<String, u32> = HashMap::new();
        let mut word = |s: &str| {
            let next = words.len() as u32;
            *words.entry(normalize(s)).or_insert(next)
        };
        let mut own: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut edges: Vec<Vec<Edge>> = vec![Vec::new(); n];
        for (base, t) in [(0, test), (n1, gold)] {
            for (i, label) in t.instances.iter().enumerate() {
                own[base + i].push(word(label));
            }
            for a in &t.attributes {
                let key = [word(&a.role), word(&a.value)];
                own[base + a.node].extend(key);
            }
            for rel in &t.relations {
                let role = word(&rel.role);
                let (s, d) = (base + rel.source, base + rel.target);
                edges[s].push((role, true, d as u32));
                edges[d].push((role, false, s as u32));
            }
        }
        // The label stays first; the attributes are a multiset of (role, value) pairs.
        let keys: Vec<(u32, Vec<[u32; 2]>)> = own
            .iter()
            .map(|w| {
                let mut pairs: Vec<[u32; 2]> = w[1..].chunks(2).map(|c| [c[0], c[1]]).collect();
                pairs.sort_unstable();
                (w[0], pairs)
            })
            .collect();
        let mut ids: FxHashMap<&(u32, Vec<[u32; 2]>), u32> = FxHashMap::default();
        let colour: Vec<u32> = keys
            .iter()
            .map(|k| {
                let next = ids.len() as u32;
                *ids.entry(k).or_insert(next)
            })
            .collect();
        let classes = ids.len();
        Refinement {
            n1,
            colour,
            classes,
            edges,
        }
    }

    /// One round: each node's new colour is its colour with the multiset of its neighbours'
    /// colours along each role and direction. Whether the partition got finer.
    fn refine(&mut self) -> bool {
        let mut ids: FxHashMap<(u32, Vec<Edge>), u32> = FxHashMap::default();
        let mut next = Vec::with_capacity(self.colour.len());
        for (v, edges) in self.edges.iter().enumerate() {
            let mut around: Vec<Edge> = edges
                .iter()
                .map(|&(r, s, o)| (r, s, self.colour[o as usize]))
                .collect();
            around.sort_unstable();
            let fresh = ids.len() as u32;
            next.push(*ids.entry((self.colour[v], around)).or_insert(fresh));
        }
        let finer = ids.len() > self.classes;
        self.colour = next;
        self.classes = ids.len();
        finer
    }

    /// Break a tie: the first test and the first gold node of the smallest colour class that
    /// has more than one node on some side get a colour of their own. Whether there was one.
    fn individualise(&mut self) -> bool {
        let mut members: Vec<(Vec<usize>, Vec<usize>)> = vec![Default::default(); self.classes];
        for (v, &c) in self.colour.iter().enumerate() {
            let side = &mut members[c as usize];
            if v < self.n1 {
                &mut side.0
            } else {
                &mut side.1
            }
            .push(v);
        }
        let tied = members
            .iter()
            .filter(|(t, g)| !t.is_empty() && !g.is_empty() && t.len() + g.len() > 2)
            .min_by_key(|(t, g)| t.len() + g.len());
        let Some((t, g)) = tied else {
            return false;
        };
        let fresh = self.classes as u32;
        self.colour[t[0]] = fresh;
        self.colour[g[0]] = fresh;
        self.classes += 1;
        true
    }

    /// Test nodes paired with gold nodes of their colour, in node order on both sides.
    fn pairing(&self) -> Vec<i32> {
        let mut gold_of: Vec<Vec<u32>> = vec![Vec::new(); self.classes];
        for v in (self.n1..self.colour.len()).rev() {
            gold_of[self.colour[v] as usize].push((v - self.n1) as u32);
        }
        self.colour[..self.n1]
            .iter()
            .map(|&c| gold_of[c as usize].pop().map_or(-1, |x| x as i32))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::triples_from_text;
    use super::*;

    #[test]
    fn renamed_and_reordered_networks_align_completely() {
        let t = triples_from_text("(B ?Y ?Z 3) (A ?X ?Y) (A ?Z ?X) (C ?X 3)");
        let g = triples_from_text("(A ?P ?Q) (C ?P 3) (A ?R ?P) (B ?Q ?R 3)");
        let p = Problem::new(&t, &g);
        let (mapping, score) = aligned_mapping(&p, &t, &g);
        assert_eq!(score, t.len() as i64);
        assert_eq!(p.score_of(&mapping), score);
    }

    #[test]
    fn symmetric_networks_need_individualisation() {
        // A cycle of four identical actions: refinement alone leaves one class per side.
        let t = triples_from_text("(F ?A ?B) (F ?B ?C) (F ?C ?D) (F ?D ?A)");
        let g = triples_from_text("(F ?W ?X) (F ?Z ?W) (F ?Y ?Z) (F ?X ?Y)");
        let p = Problem::new(&t, &g);
        assert_eq!(aligned_mapping(&p, &t, &g).1, t.len() as i64);
    }
}
