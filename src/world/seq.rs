//! The items of a Lisp list held by a kitchen entity (a place's contents, a mixture's
//! components, a list's items): copied whole while short, shared in parts once long, and
//! summarised part by part so that a search passes over the parts that cannot hold what it
//! looks for.
//!
//! A kitchen state that changes a list holds its own copy of it, and the states before keep
//! theirs. A counter-top of 20,000 portions copied into every later state made memory and
//! time grow with the square of the number of portionings, so a long list is a persistent
//! tree of our own (leaves of at most [`LEAF_MAX`] items under branches of at most
//! [`BRANCH_MAX`] children, every leaf at the same depth): its copy shares every node, and an
//! edit copies only the nodes on its path. Searching such a counter-top item by item still
//! cost the whole counter-top at every action, so every node keeps, made when first asked and
//! dropped when an edit copies it, what a search asks of its items ([`Kinds`]: their
//! persistent ids and classes) and the height of its tallest item, and a node a search cannot
//! match in is passed over whole. A short list stays a plain vector, smaller and as cheap to
//! copy. Which of the two a list is never shows: order, equality and every answer are those
//! of the items, and a search meets its first match where a walk item by item meets it.

use std::fmt;
use std::ops::Index;
use std::sync::{Arc, OnceLock};

/// The longest list kept flat: copying 256 items costs about what an edit of a long list
/// copies (a leaf and a branch at each level of its path).
pub const FLAT_MAX: usize = 256;

/// The most items a leaf of a long list holds.
const LEAF_MAX: usize = 64;

/// The most children a branch of a long list holds.
const BRANCH_MAX: usize = 32;

/// The most distinct classes [`Kinds`] names before it says only "many".
const CLASSES_NAMED: usize = 8;

/// What a search may ask of an item: its persistent id and class, when it is an object.
pub trait Tagged {
    fn tag(&self) -> Option<(u32, u16)>;
}

/// What the objects among some items of a long list are: which persistent ids they may have
/// (a Bloom filter of 256 bits, so a clear bit rules an id out) and their classes (named while
/// at most [`CLASSES_NAMED`] differ). Portions are copies of their dough with its id, so a
/// part of a counter-top names one or two ids and classes.
#[derive(Clone, Debug, Default)]
pub struct Kinds {
    pids: [u64; 4],
    classes: [u16; CLASSES_NAMED],
    named: u8,
    many: bool,
}

impl Kinds {
    /// The word and bit of the filter that `pid` sets (Fibonacci hashing, the top 8 bits).
    fn bit(pid: u32) -> (usize, u64) {
        let h = u64::from(pid).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56;
        ((h / 64) as usize, 1 << (h % 64))
    }

    fn add_class(&mut self, class: u16) {
        let named = &self.classes[..usize::from(self.named)];
        if self.many || named.contains(&class) {
            return;
        }
        match usize::from(self.named) < CLASSES_NAMED {
            true => {
                self.classes[usize::from(self.named)] = class;
                self.named += 1;
            }
            false => self.many = true,
        }
    }

    fn add(&mut self, pid: u32, class: u16) {
        let (word, bit) = Kinds::bit(pid);
        self.pids[word] |= bit;
        self.add_class(class);
    }

    fn merge(&mut self, other: &Kinds) {
        for (mine, theirs) in self.pids.iter_mut().zip(other.pids) {
            *mine |= theirs;
        }
        self.many |= other.many;
        for &class in &other.classes[..usize::from(other.named)] {
            self.add_class(class);
        }
    }

    /// Whether an object with persistent id `pid` may be among the items.
    pub fn may_hold_pid(&self, pid: u32) -> bool {
        let (word, bit) = Kinds::bit(pid);
        self.pids[word] & bit != 0
    }

    /// Whether an object of a class `fits` may be among the items.
    pub fn may_hold_class(&self, fits: impl Fn(u16) -> bool) -> bool {
        self.many
            || self.classes[..usize::from(self.named)]
                .iter()
                .any(|&c| fits(c))
    }
}

/// A sequence that shares its parts with its copies once it is longer than [`FLAT_MAX`].
#[derive(Clone)]
pub struct Seq<T: Clone>(Repr<T>);

#[derive(Clone)]
enum Repr<T: Clone> {
    Flat(Vec<T>),
    Shared(Arc<Node<T>>),
}

/// A node of a long list: its item count, its items or children, and what searches asked of
/// it so far (kept while no edit copies the node).
#[derive(Clone)]
struct Node<T: Clone> {
    len: usize,
    body: Body<T>,
    kinds: OnceLock<Kinds>,
    tallest: OnceLock<usize>,
}

#[derive(Clone)]
enum Body<T: Clone> {
    Leaf(Vec<T>),
    Branch(Vec<Arc<Node<T>>>),
}

/// The node, changeable: copied first when another list shares it, and what was known of its
/// items forgotten.
fn edit<T: Clone>(node: &mut Arc<Node<T>>) -> &mut Node<T> {
    let node = Arc::make_mut(node);
    node.kinds.take();
    node.tallest.take();
    node
}

/// The child of `children` holding index `i`, and `i` within it; `at_end` allows the index
/// just past the last item (where an insertion goes).
fn child_at<T: Clone>(children: &[Arc<Node<T>>], mut i: usize, at_end: bool) -> (usize, usize) {
    let last = children.len() - 1;
    for (k, child) in children.iter().enumerate() {
        if i < child.len || (at_end && k == last) {
            return (k, i);
        }
        i -= child.len;
    }
    (last, i)
}

impl<T: Clone + Tagged> Node<T> {
    fn with(len: usize, body: Body<T>) -> Node<T> {
        Node {
            len,
            body,
            kinds: OnceLock::new(),
            tallest: OnceLock::new(),
        }
    }

    fn leaf(items: Vec<T>) -> Node<T> {
        Node::with(items.len(), Body::Leaf(items))
    }

    fn branch(children: Vec<Arc<Node<T>>>) -> Node<T> {
        Node::with(children.iter().map(|c| c.len).sum(), Body::Branch(children))
    }

    /// A tree of `items` in full leaves.
    fn build(items: Vec<T>) -> Arc<Node<T>> {
        let mut items = items.into_iter().peekable();
        let mut level: Vec<Arc<Node<T>>> = Vec::new();
        while items.peek().is_some() {
            let leaf: Vec<T> = items.by_ref().take(LEAF_MAX).collect();
            level.push(Arc::new(Node::leaf(leaf)));
        }
        while level.len() > 1 {
            let mut children = level.into_iter().peekable();
            level = Vec::new();
            while children.peek().is_some() {
                level.push(Arc::new(Node::branch(
                    children.by_ref().take(BRANCH_MAX).collect(),
                )));
            }
        }
        level
            .pop()
            .unwrap_or_else(|| Arc::new(Node::leaf(Vec::new())))
    }

    /// Levels of branches above the leaves.
    fn height(&self) -> usize {
        match &self.body {
            Body::Leaf(_) => 0,
            Body::Branch(children) => 1 + children[0].height(),
        }
    }

    /// Split a node over its bound in two halves: this one keeps the first, the second is
    /// returned, to go right after it.
    fn split_when_over(&mut self) -> Option<Arc<Node<T>>> {
        let right = match &mut self.body {
            Body::Leaf(items) if items.len() > LEAF_MAX => {
                Node::leaf(items.split_off(items.len() / 2))
            }
            Body::Branch(children) if children.len() > BRANCH_MAX => {
                Node::branch(children.split_off(children.len() / 2))
            }
            _ => return None,
        };
        self.len -= right.len;
        Some(Arc::new(right))
    }

    fn get(&self, mut i: usize) -> Option<&T> {
        if i >= self.len {
            return None;
        }
        let mut node = self;
        loop {
            match &node.body {
                Body::Leaf(items) => return items.get(i),
                Body::Branch(children) => {
                    let (k, at) = child_at(children, i, false);
                    (node, i) = (children.get(k)?, at);
                }
            }
        }
    }

    fn get_mut(node: &mut Arc<Node<T>>, i: usize) -> Option<&mut T> {
        if i >= node.len {
            return None;
        }
        match &mut edit(node).body {
            Body::Leaf(items) => items.get_mut(i),
            Body::Branch(children) => {
                let (k, at) = child_at(children, i, false);
                Node::get_mut(children.get_mut(k)?, at)
            }
        }
    }

    /// Insert `item` at `i` (at most the length); returns the node split off, if any.
    fn insert(node: &mut Arc<Node<T>>, i: usize, item: T) -> Option<Arc<Node<T>>> {
        let n = edit(node);
        n.len += 1;
        match &mut n.body {
            Body::Leaf(items) => items.insert(i, item),
            Body::Branch(children) => {
                let (k, at) = child_at(children, i, true);
                if let Some(right) = Node::insert(&mut children[k], at, item) {
                    children.insert(k + 1, right);
                }
            }
        }
        n.split_when_over()
    }

    /// Remove the item at `i` (below the length); a node emptied is removed with it.
    fn remove(node: &mut Arc<Node<T>>, i: usize) -> T {
        let n = edit(node);
        n.len -= 1;
        match &mut n.body {
            Body::Leaf(items) => items.remove(i),
            Body::Branch(children) => {
                let (k, at) = child_at(children, i, false);
                let item = Node::remove(&mut children[k], at);
                if children[k].len == 0 {
                    children.remove(k);
                }
                item
            }
        }
    }

    /// Put `child` first (`front`) or last among the children `levels` levels below `node`;
    /// returns the node split off, if any.
    fn put_at_edge(
        node: &mut Arc<Node<T>>,
        child: Arc<Node<T>>,
        levels: usize,
        front: bool,
    ) -> Option<Arc<Node<T>>> {
        let n = edit(node);
        n.len += child.len;
        let Body::Branch(children) = &mut n.body else {
            unreachable!("a node above another is a branch")
        };
        match (levels, front) {
            (1, true) => children.insert(0, child),
            (1, false) => children.push(child),
            _ => {
                let k = if front { 0 } else { children.len() - 1 };
                if let Some(right) = Node::put_at_edge(&mut children[k], child, levels - 1, front) {
                    children.insert(k + 1, right);
                }
            }
        }
        n.split_when_over()
    }

    /// The items of `left` followed by those of `right`.
    fn join(mut left: Arc<Node<T>>, mut right: Arc<Node<T>>) -> Arc<Node<T>> {
        if left.len == 0 {
            return right;
        }
        if right.len == 0 {
            return left;
        }
        let (hl, hr) = (left.height(), right.height());
        let (mut root, split) = match hl.cmp(&hr) {
            std::cmp::Ordering::Equal => return Arc::new(Node::branch(vec![left, right])),
            std::cmp::Ordering::Less => {
                let split = Node::put_at_edge(&mut right, left, hr - hl, true);
                (right, split)
            }
            std::cmp::Ordering::Greater => {
                let split = Node::put_at_edge(&mut left, right, hl - hr, false);
                (left, split)
            }
        };
        if let Some(split) = split {
            root = Arc::new(Node::branch(vec![root, split]));
        }
        root
    }

    fn kinds(&self) -> &Kinds {
        self.kinds.get_or_init(|| {
            let mut kinds = Kinds::default();
            match &self.body {
                Body::Leaf(items) => {
                    for (pid, class) in items.iter().filter_map(Tagged::tag) {
                        kinds.add(pid, class);
                    }
                }
                Body::Branch(children) => {
                    for child in children {
                        kinds.merge(child.kinds());
                    }
                }
            }
            kinds
        })
    }

    fn tallest(&self, height_of: &mut dyn FnMut(&T) -> usize) -> usize {
        if let Some(&tallest) = self.tallest.get() {
            return tallest;
        }
        let tallest = match &self.body {
            Body::Leaf(items) => items.iter().map(&mut *height_of).max(),
            Body::Branch(children) => children.iter().map(|c| c.tallest(height_of)).max(),
        };
        let tallest = tallest.unwrap_or(0);
        let _ = self.tallest.set(tallest);
        tallest
    }

    fn find_where<R>(
        &self,
        start: usize,
        may_hold: &dyn Fn(&Kinds) -> bool,
        found: &mut dyn FnMut(usize, &T) -> Option<R>,
    ) -> Option<R> {
        if !may_hold(self.kinds()) {
            return None;
        }
        match &self.body {
            Body::Leaf(items) => (items.iter().enumerate()).find_map(|(i, v)| found(start + i, v)),
            Body::Branch(children) => {
                let mut at = start;
                for child in children {
                    if let Some(r) = child.find_where(at, may_hold, found) {
                        return Some(r);
                    }
                    at += child.len;
                }
                None
            }
        }
    }
}

impl<T: Clone + Tagged> Seq<T> {
    pub const fn new() -> Self {
        Seq(Repr::Flat(Vec::new()))
    }

    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Flat(v) => v.len(),
            Repr::Shared(root) => root.len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        match &self.0 {
            Repr::Flat(v) => v.get(i),
            Repr::Shared(root) => root.get(i),
        }
    }

    pub fn first(&self) -> Option<&T> {
        self.get(0)
    }

    pub fn last(&self) -> Option<&T> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }

    /// The only item, when there is exactly one.
    pub fn single(&self) -> Option<&T> {
        (self.len() == 1).then(|| self.first()).flatten()
    }

    pub fn iter(&self) -> Iter<'_, T> {
        match &self.0 {
            Repr::Flat(v) => Iter::Flat(v.iter()),
            Repr::Shared(root) => Iter::Shared {
                front: Walk::new(root),
                back: Walk::new(root),
                left: root.len,
            },
        }
    }

    /// The first `found` answers for an item, with its index, in order; the parts of a long
    /// list whose [`Kinds`] `may_hold` rules out are passed over, so `found` must answer
    /// `None` for every item of such a part.
    pub fn find_where<R>(
        &self,
        may_hold: impl Fn(&Kinds) -> bool,
        mut found: impl FnMut(usize, &T) -> Option<R>,
    ) -> Option<R> {
        match &self.0 {
            Repr::Flat(v) => v.iter().enumerate().find_map(|(i, v)| found(i, v)),
            Repr::Shared(root) => root.find_where(0, &may_hold, &mut found),
        }
    }

    /// The greatest `height_of` an item of a long list, remembered by the parts of it that
    /// later lists share; `None` for a short list (walking it costs what remembering would).
    pub fn tallest(&self, height_of: &mut dyn FnMut(&T) -> usize) -> Option<usize> {
        match &self.0 {
            Repr::Flat(_) => None,
            Repr::Shared(root) => Some(root.tallest(height_of)),
        }
    }

    /// The items in a plain vector of their own.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().cloned().collect()
    }

    /// How many items a copy of this list counts for in the memory budget
    /// ([`crate::base::budget::charge`]): all of a flat one, [`FLAT_MAX`] for a shared one
    /// (what an edit's path copies, about).
    pub fn copied_by_edit(&self) -> usize {
        match &self.0 {
            Repr::Flat(v) => v.len(),
            Repr::Shared(root) => root.len.min(FLAT_MAX),
        }
    }

    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        match &mut self.0 {
            Repr::Flat(v) => v.get_mut(i),
            Repr::Shared(root) => Node::get_mut(root, i),
        }
    }

    /// Every item, changeable in place (a shared list copies every node it walks).
    pub fn iter_mut(&mut self) -> IterMut<'_, T> {
        match &mut self.0 {
            Repr::Flat(v) => IterMut::Flat(v.iter_mut()),
            Repr::Shared(root) => IterMut::Shared(match &mut edit(root).body {
                Body::Leaf(items) => WalkMut {
                    up: Vec::new(),
                    leaf: items.iter_mut(),
                },
                Body::Branch(children) => WalkMut {
                    up: vec![children.iter_mut()],
                    leaf: [].iter_mut(),
                },
            }),
        }
    }

    pub fn insert(&mut self, i: usize, item: T) {
        match &mut self.0 {
            Repr::Flat(v) => v.insert(i, item),
            Repr::Shared(root) => {
                assert!(i <= root.len, "insertion index {i} past the length");
                if let Some(right) = Node::insert(root, i, item) {
                    *root = Arc::new(Node::branch(vec![root.clone(), right]));
                }
            }
        }
        self.share_when_long();
    }

    pub fn remove(&mut self, i: usize) -> T {
        match &mut self.0 {
            Repr::Flat(v) => v.remove(i),
            Repr::Shared(root) => {
                assert!(i < root.len, "removal index {i} past the length");
                let item = Node::remove(root, i);
                // A root left with one child is that child; an emptied one a leaf.
                loop {
                    let only = match &root.body {
                        Body::Branch(children) if children.len() == 1 => children[0].clone(),
                        Body::Branch(children) if children.is_empty() => {
                            Arc::new(Node::leaf(Vec::new()))
                        }
                        _ => break,
                    };
                    *root = only;
                }
                item
            }
        }
    }

    /// Keep the items `keep` holds to, in order. A shared list removes the others one by one,
    /// so that the nodes between them stay shared.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        match &mut self.0 {
            Repr::Flat(v) => v.retain(keep),
            Repr::Shared(_) => {
                let gone: Vec<usize> = (self.iter().enumerate())
                    .filter(|(_, v)| !keep(v))
                    .map(|(i, _)| i)
                    .collect();
                for i in gone.into_iter().rev() {
                    self.remove(i);
                }
            }
        }
    }

    /// Put `items`, in their order, before the items there are.
    pub fn prepend(&mut self, items: Vec<T>) {
        if let Repr::Flat(v) = &mut self.0
            && v.len() + items.len() <= FLAT_MAX
        {
            v.splice(0..0, items);
            return;
        }
        let back = match std::mem::take(self).0 {
            Repr::Flat(v) => Node::build(v),
            Repr::Shared(root) => root,
        };
        self.0 = Repr::Shared(Node::join(Node::build(items), back));
    }

    /// Whether the items sit in a persistent tree whose copies share its nodes.
    pub fn is_shared(&self) -> bool {
        matches!(self.0, Repr::Shared(_))
    }

    fn share_when_long(&mut self) {
        if let Repr::Flat(v) = &mut self.0
            && v.len() > FLAT_MAX
        {
            self.0 = Repr::Shared(Node::build(std::mem::take(v)));
        }
    }
}

/// As the plain vector and the persistent vector it was before showed it: `Seq(Flat([..]))`
/// or `Seq(Shared([..]))`.
impl<T: Clone + Tagged + fmt::Debug> fmt::Debug for Seq<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let form = if self.is_shared() { "Shared" } else { "Flat" };
        f.debug_tuple("Seq").field(&Form(form, self)).finish()
    }
}

/// A [`Seq`]'s form named, with its items.
struct Form<'a, T: Clone>(&'static str, &'a Seq<T>);

impl<T: Clone + Tagged + fmt::Debug> fmt::Debug for Form<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple(self.0).field(&Items(self.1)).finish()
    }
}

/// A [`Seq`]'s items as a list.
struct Items<'a, T: Clone>(&'a Seq<T>);

impl<T: Clone + Tagged + fmt::Debug> fmt::Debug for Items<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl<T: Clone + Tagged> Default for Seq<T> {
    fn default() -> Self {
        Seq::new()
    }
}

impl<T: Clone + Tagged> From<Vec<T>> for Seq<T> {
    fn from(items: Vec<T>) -> Self {
        let mut seq = Seq(Repr::Flat(items));
        seq.share_when_long();
        seq
    }
}

impl<T: Clone + Tagged> FromIterator<T> for Seq<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        Seq::from(items.into_iter().collect::<Vec<T>>())
    }
}

impl<T: Clone + Tagged> Index<usize> for Seq<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        self.get(i).expect("index within the list")
    }
}

impl<'a, T: Clone + Tagged> IntoIterator for &'a Seq<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

/// One end of a walk over a long list's leaves: the children left at each level above the
/// current leaf, and the leaf's items left.
pub struct Walk<'a, T: Clone> {
    up: Vec<std::slice::Iter<'a, Arc<Node<T>>>>,
    leaf: std::slice::Iter<'a, T>,
}

impl<'a, T: Clone> Walk<'a, T> {
    fn new(root: &'a Node<T>) -> Self {
        match &root.body {
            Body::Leaf(items) => Walk {
                up: Vec::new(),
                leaf: items.iter(),
            },
            Body::Branch(children) => Walk {
                up: vec![children.iter()],
                leaf: [].iter(),
            },
        }
    }

    /// The next item from the front, or from the back when `back`.
    fn next(&mut self, back: bool) -> Option<&'a T> {
        loop {
            let item = if back {
                self.leaf.next_back()
            } else {
                self.leaf.next()
            };
            if item.is_some() {
                return item;
            }
            loop {
                let level = self.up.last_mut()?;
                let child = if back {
                    level.next_back()
                } else {
                    level.next()
                };
                match child.map(|c| &c.body) {
                    None => {
                        self.up.pop();
                    }
                    Some(Body::Leaf(items)) => {
                        self.leaf = items.iter();
                        break;
                    }
                    Some(Body::Branch(children)) => self.up.push(children.iter()),
                }
            }
        }
    }
}

/// The items of a [`Seq`] in order, from either end.
pub enum Iter<'a, T: Clone> {
    Flat(std::slice::Iter<'a, T>),
    /// Two walks, one from each end, and how many items are left between them.
    Shared {
        front: Walk<'a, T>,
        back: Walk<'a, T>,
        left: usize,
    },
}

impl<'a, T: Clone> Iter<'a, T> {
    fn next_from(&mut self, back: bool) -> Option<&'a T> {
        match self {
            Iter::Flat(i) if back => i.next_back(),
            Iter::Flat(i) => i.next(),
            Iter::Shared { left: 0, .. } => None,
            Iter::Shared {
                front,
                back: b,
                left,
            } => {
                *left -= 1;
                if back {
                    b.next(true)
                } else {
                    front.next(false)
                }
            }
        }
    }
}

impl<'a, T: Clone> Iterator for Iter<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        self.next_from(false)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Iter::Flat(i) => i.size_hint(),
            Iter::Shared { left, .. } => (*left, Some(*left)),
        }
    }
}

impl<T: Clone> DoubleEndedIterator for Iter<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.next_from(true)
    }
}

impl<T: Clone> ExactSizeIterator for Iter<'_, T> {}

/// The children left at each level above the current leaf of a long list, and the leaf's
/// items left, each node made the list's own as the walk reaches it.
pub struct WalkMut<'a, T: Clone> {
    up: Vec<std::slice::IterMut<'a, Arc<Node<T>>>>,
    leaf: std::slice::IterMut<'a, T>,
}

/// The items of a [`Seq`] in order, each changeable in place.
pub enum IterMut<'a, T: Clone> {
    Flat(std::slice::IterMut<'a, T>),
    Shared(WalkMut<'a, T>),
}

impl<'a, T: Clone> Iterator for IterMut<'a, T> {
    type Item = &'a mut T;

    fn next(&mut self) -> Option<&'a mut T> {
        let WalkMut { up, leaf } = match self {
            IterMut::Flat(i) => return i.next(),
            IterMut::Shared(walk) => walk,
        };
        loop {
            if let Some(item) = leaf.next() {
                return Some(item);
            }
            loop {
                let level = up.last_mut()?;
                match level.next().map(|c| &mut edit(c).body) {
                    None => {
                        up.pop();
                    }
                    Some(Body::Leaf(items)) => {
                        *leaf = items.iter_mut();
                        break;
                    }
                    Some(Body::Branch(children)) => up.push(children.iter_mut()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A number is an object of its own id, of class `id % 3`.
    impl Tagged for usize {
        fn tag(&self) -> Option<(u32, u16)> {
            Some((*self as u32, (*self % 3) as u16))
        }
    }

    /// Every edit gives the items a plain vector gives, on either side of the bound.
    #[test]
    fn edits_keep_the_order_a_plain_vector_keeps() {
        for n in [0, 3, FLAT_MAX - 1, FLAT_MAX, FLAT_MAX + 1, 5_000, 70_000] {
            let mut plain: Vec<usize> = (0..n).collect();
            let mut seq: Seq<usize> = (0..n).collect();
            assert_eq!(seq.is_shared(), n > FLAT_MAX);
            seq.insert(0, 9_999);
            plain.insert(0, 9_999);
            seq.insert(seq.len() / 2, 7_777);
            plain.insert(plain.len() / 2, 7_777);
            seq.insert(seq.len(), 6_666);
            plain.push(6_666);
            assert_eq!(seq.remove(seq.len() / 3), plain.remove(plain.len() / 3));
            seq.retain(|i| i % 7 != 3);
            plain.retain(|i| i % 7 != 3);
            seq.prepend(vec![1, 2, 3]);
            plain.splice(0..0, [1, 2, 3]);
            seq.prepend((0..n * 3).collect());
            plain.splice(0..0, 0..n * 3);
            seq.iter_mut().for_each(|i| *i += 1);
            plain.iter_mut().for_each(|i| *i += 1);
            assert_eq!(seq.to_vec(), plain);
            for i in [0, 1, plain.len() / 2, plain.len() - 1, plain.len()] {
                assert_eq!(seq.get(i), plain.get(i));
            }
            assert_eq!(seq.iter().rev().copied().collect::<Vec<_>>(), {
                plain.reverse();
                plain.clone()
            });
            assert_eq!(seq.last(), plain.first());
            assert_eq!(seq.iter().len(), plain.len());
            // Both ends of one walk meet without a gap or an item twice.
            let mut ends = seq.iter();
            let (mut front, mut back): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
            while let Some(&i) = ends.next() {
                front.push(i);
                back.extend(ends.next_back().copied());
            }
            front.extend(back.into_iter().rev());
            plain.reverse();
            assert_eq!(front, plain);
            // Removed to the last item, and grown again.
            while !seq.is_empty() {
                seq.remove(seq.len() / 2);
            }
            seq.insert(0, 5);
            assert_eq!(seq.to_vec(), [5]);
        }
    }

    #[test]
    fn a_list_grown_past_the_bound_is_shared_and_a_single_item_is_named() {
        let mut seq: Seq<usize> = (0..FLAT_MAX).collect();
        assert!(!seq.is_shared());
        seq.insert(0, 1);
        assert!(seq.is_shared());
        let mut seq: Seq<usize> = Seq::new();
        seq.prepend((0..=FLAT_MAX).collect());
        assert!(seq.is_shared());
        assert_eq!(Seq::from(vec![4]).single(), Some(&4));
        assert_eq!(Seq::from(vec![4, 5]).single(), None);
        assert_eq!(format!("{:?}", Seq::from(vec![4, 5])), "Seq(Flat([4, 5]))");
        let long: Seq<usize> = (0..300).collect();
        assert!(format!("{long:?}").starts_with("Seq(Shared([0, 1, 2,"));
    }

    /// A search meets the first match a walk item by item meets, whatever it passes over, and
    /// an edit forgets what was known of the nodes it copies.
    #[test]
    fn a_search_passes_over_parts_and_meets_the_first_match() {
        let mut seq: Seq<usize> = (0..10_000).map(|i| i * 3).collect();
        let first = |seq: &Seq<usize>, wanted: usize| {
            let found = seq.find_where(
                |k| k.may_hold_pid(wanted as u32),
                |i, &v| (v == wanted).then_some(i),
            );
            assert_eq!(found, seq.iter().position(|&v| v == wanted));
            found
        };
        assert_eq!(first(&seq, 3 * 6_001), Some(6_001));
        assert_eq!(first(&seq, 1), None);
        let copy = seq.clone();
        seq.insert(7_000, 1);
        *seq.get_mut(20).unwrap() = 3 * 6_001;
        assert_eq!(first(&seq, 1), Some(7_000));
        assert_eq!(first(&seq, 3 * 6_001), Some(20));
        assert_eq!(first(&copy, 1), None);
        // Only multiples of 3: class 0 alone.
        let class_of = |seq: &Seq<usize>, class: u16| {
            seq.find_where(
                |k| k.may_hold_class(|c| c == class),
                |i, &v| (v % 3 == usize::from(class)).then_some(i),
            )
        };
        assert_eq!(class_of(&copy, 1), None);
        assert_eq!(class_of(&seq, 1), Some(7_000));
        // Heights: the tallest item, known again after an edit.
        let tallest = |seq: &Seq<usize>| seq.tallest(&mut |&v| v % 1_000);
        assert_eq!(tallest(&copy), Some(999));
        let mut low: Seq<usize> = (0..500).map(|i| i * 1_000).collect();
        assert_eq!(tallest(&low), Some(0));
        low.insert(250, 7);
        assert_eq!(tallest(&low), Some(7));
        assert_eq!(tallest(&Seq::from(vec![5])), None);
    }
}
