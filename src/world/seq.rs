//! The items of a Lisp list held by a kitchen entity (a place's contents, a mixture's
//! components, a list's items): copied whole while short, shared in parts once long.
//!
//! A kitchen state that changes a list holds its own copy of it, and the states before keep
//! theirs. A counter-top of 20,000 portions copied into every later state made memory and
//! time grow with the square of the number of portionings, so a long list is a persistent
//! vector (`imbl`'s RRB tree of 64-item chunks): its copy shares every chunk, and an edit
//! copies only the chunks on its path. A short list stays a plain vector, smaller (a
//! persistent vector allocates whole chunks) and as cheap to copy. Which of the two a list is
//! never shows: order, equality and every answer are those of the items.

use imbl::Vector;
use imbl::shared_ptr::DefaultSharedPtr;
use std::ops::Index;

/// The longest list kept flat: copying 256 items costs about what an edit of a persistent
/// vector copies (a chunk of 64 at each level of its path and at its ends).
pub const FLAT_MAX: usize = 256;

/// A sequence that shares its parts with its copies once it is longer than [`FLAT_MAX`].
#[derive(Clone, Debug)]
pub struct Seq<T: Clone>(Repr<T>);

#[derive(Clone, Debug)]
enum Repr<T: Clone> {
    Flat(Vec<T>),
    Shared(Box<Vector<T>>),
}

impl<T: Clone> Seq<T> {
    pub const fn new() -> Self {
        Seq(Repr::Flat(Vec::new()))
    }

    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Flat(v) => v.len(),
            Repr::Shared(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        match &self.0 {
            Repr::Flat(v) => v.get(i),
            Repr::Shared(v) => v.get(i),
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
            Repr::Shared(v) => Iter::Shared(v.iter()),
        }
    }

    /// The items in a plain vector of their own.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().cloned().collect()
    }

    /// How many items a copy of this list copies: all of a flat one, the chunks an edit's path
    /// touches of a shared one (what [`crate::base::budget::charge`] counts for the copy).
    pub fn copied_by_edit(&self) -> usize {
        match &self.0 {
            Repr::Flat(v) => v.len(),
            Repr::Shared(v) => v.len().min(FLAT_MAX),
        }
    }

    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        match &mut self.0 {
            Repr::Flat(v) => v.get_mut(i),
            Repr::Shared(v) => v.get_mut(i),
        }
    }

    /// Every item, changeable in place (a shared list copies every chunk it walks).
    pub fn iter_mut(&mut self) -> IterMut<'_, T> {
        match &mut self.0 {
            Repr::Flat(v) => IterMut::Flat(v.iter_mut()),
            Repr::Shared(v) => IterMut::Shared(v.iter_mut()),
        }
    }

    pub fn insert(&mut self, i: usize, item: T) {
        match &mut self.0 {
            Repr::Flat(v) => v.insert(i, item),
            Repr::Shared(v) => v.insert(i, item),
        }
        self.share_when_long();
    }

    pub fn remove(&mut self, i: usize) -> T {
        match &mut self.0 {
            Repr::Flat(v) => v.remove(i),
            Repr::Shared(v) => v.remove(i),
        }
    }

    /// Keep the items `keep` holds to, in order. A shared list removes the others one by one,
    /// so that the chunks between them stay shared.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        match &mut self.0 {
            Repr::Flat(v) => v.retain(keep),
            Repr::Shared(v) => {
                let gone: Vec<usize> = (0..v.len()).filter(|&i| !keep(&v[i])).collect();
                for i in gone.into_iter().rev() {
                    v.remove(i);
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
        let mut front = Vector::from(items);
        front.append(std::mem::take(self).into_vector());
        self.0 = Repr::Shared(Box::new(front));
    }

    /// Whether the items sit in a persistent vector whose copies share its chunks.
    pub fn is_shared(&self) -> bool {
        matches!(self.0, Repr::Shared(_))
    }

    fn into_vector(self) -> Vector<T> {
        match self.0 {
            Repr::Flat(v) => Vector::from(v),
            Repr::Shared(v) => *v,
        }
    }

    fn share_when_long(&mut self) {
        if let Repr::Flat(v) = &mut self.0
            && v.len() > FLAT_MAX
        {
            self.0 = Repr::Shared(Box::new(Vector::from(std::mem::take(v))));
        }
    }
}

impl<T: Clone> Default for Seq<T> {
    fn default() -> Self {
        Seq::new()
    }
}

impl<T: Clone> From<Vec<T>> for Seq<T> {
    fn from(items: Vec<T>) -> Self {
        let mut seq = Seq(Repr::Flat(items));
        seq.share_when_long();
        seq
    }
}

impl<T: Clone> FromIterator<T> for Seq<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        Seq::from(items.into_iter().collect::<Vec<T>>())
    }
}

impl<T: Clone> Index<usize> for Seq<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        match &self.0 {
            Repr::Flat(v) => &v[i],
            Repr::Shared(v) => &v[i],
        }
    }
}

impl<'a, T: Clone> IntoIterator for &'a Seq<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

/// The items of a [`Seq`] in order, from either end.
pub enum Iter<'a, T: Clone> {
    Flat(std::slice::Iter<'a, T>),
    Shared(imbl::vector::Iter<'a, T, DefaultSharedPtr>),
}

impl<'a, T: Clone> Iterator for Iter<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        match self {
            Iter::Flat(i) => i.next(),
            Iter::Shared(i) => i.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Iter::Flat(i) => i.size_hint(),
            Iter::Shared(i) => i.size_hint(),
        }
    }
}

impl<T: Clone> DoubleEndedIterator for Iter<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Flat(i) => i.next_back(),
            Iter::Shared(i) => i.next_back(),
        }
    }
}

impl<T: Clone> ExactSizeIterator for Iter<'_, T> {}

/// The items of a [`Seq`] in order, each changeable in place.
pub enum IterMut<'a, T: Clone> {
    Flat(std::slice::IterMut<'a, T>),
    Shared(imbl::vector::IterMut<'a, T, DefaultSharedPtr>),
}

impl<'a, T: Clone> Iterator for IterMut<'a, T> {
    type Item = &'a mut T;

    fn next(&mut self) -> Option<&'a mut T> {
        match self {
            IterMut::Flat(i) => i.next(),
            IterMut::Shared(i) => i.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every edit gives the items a plain vector gives, on either side of the bound.
    #[test]
    fn edits_keep_the_order_a_plain_vector_keeps() {
        for n in [0, 3, FLAT_MAX - 1, FLAT_MAX, FLAT_MAX + 1, 5_000] {
            let mut plain: Vec<usize> = (0..n).collect();
            let mut seq: Seq<usize> = (0..n).collect();
            assert_eq!(seq.is_shared(), n > FLAT_MAX);
            seq.insert(0, 9_999);
            plain.insert(0, 9_999);
            seq.insert(seq.len() / 2, 7_777);
            plain.insert(plain.len() / 2, 7_777);
            assert_eq!(seq.remove(seq.len() / 3), plain.remove(plain.len() / 3));
            seq.retain(|i| i % 7 != 3);
            plain.retain(|i| i % 7 != 3);
            seq.prepend(vec![1, 2, 3]);
            plain.splice(0..0, [1, 2, 3]);
            seq.iter_mut().for_each(|i| *i += 1);
            plain.iter_mut().for_each(|i| *i += 1);
            assert_eq!(seq.to_vec(), plain);
            assert_eq!(seq.iter().rev().copied().collect::<Vec<_>>(), {
                plain.reverse();
                plain.clone()
            });
            assert_eq!(seq.last(), plain.first());
            assert_eq!(seq.iter().len(), plain.len());
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
    }
}
