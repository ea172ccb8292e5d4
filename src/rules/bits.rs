//! Bitboards of three widths, so that small boards do not pay for large ones.
//!
//! Square `file + rank * width` of a board is bit `file + rank * width`. Boards of up to 64
//! squares use `u64`, up to 128 squares `u128`, larger ones (up to 26x26) [`Wide`].

use crate::rules::mix::{self, splitmix64};
use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// The operations the rules need from a set of squares.
pub trait Bits:
    Copy
    + Eq
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many squares the type can hold.
    const CAPACITY: usize;

    /// The set holding only square `index`.
    fn single(index: usize) -> Self;
    /// Every square moved `by` places up (towards higher indices); `by` is below 64.
    fn shift_up(self, by: u32) -> Self;
    /// Every square moved `by` places down (towards lower indices); `by` is below 64.
    fn shift_down(self, by: u32) -> Self;
    /// The number of squares in the set.
    fn count(self) -> u32;
    /// The lowest square in the set; meaningless on an empty set.
    fn lowest(self) -> usize;
    /// The set as 64 bits: the set itself when it fits, else a mix of its words (two sets may
    /// then share a digest).
    fn digest(self) -> u64;

    /// True when the set holds no square.
    fn is_empty(self) -> bool {
        self == Self::default()
    }

    /// True when the set holds square `index`.
    fn has(self, index: usize) -> bool {
        !(self & Self::single(index)).is_empty()
    }

    /// Every square moved by `step` places, up when positive.
    fn shift(self, step: i32) -> Self {
        if step >= 0 {
            self.shift_up(step.unsigned_abs())
        } else {
            self.shift_down(step.unsigned_abs())
        }
    }

    /// The squares of the set, lowest first.
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterator over the squares of a set, lowest first.
#[derive(Clone)]
pub struct SquareIter<B>(B);

impl<B: Bits> Iterator for SquareIter<B> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let index = self.0.lowest();
        self.0 ^= B::single(index);
        Some(index)
    }
}

macro_rules! native_bits {
    ($ty:ty, $digest:expr) => {
        impl Bits for $ty {
            const CAPACITY: usize = <$ty>::BITS as usize;

            fn single(index: usize) -> Self {
                1 << index
            }
            fn shift_up(self, by: u32) -> Self {
                self << by
            }
            fn shift_down(self, by: u32) -> Self {
                self >> by
            }
            fn count(self) -> u32 {
                self.count_ones()
            }
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            fn is_empty(self) -> bool {
                self == 0
            }
            fn digest(self) -> u64 {
                $digest(self)
            }
        }
    };
}

native_bits!(u64, |set: u64| set);
native_bits!(u128, |set: u128| set as u64
    ^ splitmix64((set >> 64) as u64));

/// How many 64-bit words a [`Wide`] set has: enough for 26x26 = 676 squares.
const WORDS: usize = 11;

/// A set of up to 704 squares, for boards of more than 128 squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wide([u64; WORDS]);

impl Wide {
    fn zip(self, other: Wide, op: impl Fn(u64, u64) -> u64) -> Wide {
        Wide(std::array::from_fn(|i| op(self.0[i], other.0[i])))
    }
}

macro_rules! wide_op {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Wide {
            type Output = Wide;
            fn $method(self, other: Wide) -> Wide {
                self.zip(other, |a, b| a $op b)
            }
        }
        impl $assign for Wide {
            fn $assign_method(&mut self, other: Wide) {
                *self = *self $op other;
            }
        }
    };
}

wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Wide {
    type Output = Wide;
    fn not(self) -> Wide {
        Wide(self.0.map(|word| !word))
    }
}

impl Bits for Wide {
    const CAPACITY: usize = WORDS * 64;

    fn single(index: usize) -> Self {
        let mut words = [0; WORDS];
        words[index / 64] = 1 << (index % 64);
        Wide(words)
    }

    fn shift_up(self, by: u32) -> Self {
        if by == 0 {
            return self;
        }
        Wide(std::array::from_fn(|i| {
            let carry = if i == 0 {
                0
            } else {
                self.0[i - 1] >> (64 - by)
            };
            self.0[i] << by | carry
        }))
    }

    fn shift_down(self, by: u32) -> Self {
        if by == 0 {
            return self;
        }
        Wide(std::array::from_fn(|i| {
            let carry = if i + 1 == WORDS {
                0
            } else {
                self.0[i + 1] << (64 - by)
            };
            self.0[i] >> by | carry
        }))
    }

    fn count(self) -> u32 {
        self.0.iter().map(|word| word.count_ones()).sum()
    }

    fn digest(self) -> u64 {
        mix::digest(0, self.0.iter().copied())
    }

    fn lowest(self) -> usize {
        self.0
            .iter()
            .position(|&word| word != 0)
            .map_or(Self::CAPACITY, |i| {
                i * 64 + self.0[i].trailing_zeros() as usize
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_indices<B: Bits>(indices: &[usize]) -> B {
        indices
            .iter()
            .fold(B::default(), |set, &i| set | B::single(i))
    }

    /// Checks every operation of `B` against plain index arithmetic.
    fn behaves_like_a_set<B: Bits>() {
        let indices: Vec<usize> = (0..B::CAPACITY)
            .filter(|i| i % 7 == 3 || i % 11 == 0)
            .collect();
        let set: B = from_indices(&indices);
        assert_eq!(set.count() as usize, indices.len());
        assert_eq!(set.squares().collect::<Vec<_>>(), indices);
        for by in [1u32, 2, 8, 26, 52, 63] {
            let up: Vec<usize> = indices
                .iter()
                .map(|i| i + by as usize)
                .filter(|&i| i < B::CAPACITY)
                .collect();
            assert_eq!(
                set.shift_up(by).squares().collect::<Vec<_>>(),
                up,
                "up {by}"
            );
            let down: Vec<usize> = indices
                .iter()
                .filter_map(|i| i.checked_sub(by as usize))
                .collect();
            assert_eq!(
                set.shift_down(by).squares().collect::<Vec<_>>(),
                down,
                "down {by}"
            );
            assert_eq!(set.shift(-(by as i32)), set.shift_down(by));
        }
        assert!(B::default().is_empty());
        assert!((set & !set).is_empty());
        assert!(set.has(indices[3]) && !set.has(indices[3] + 1));
    }

    #[test]
    fn every_width_behaves_like_a_set() {
        behaves_like_a_set::<u64>();
        behaves_like_a_set::<u128>();
        behaves_like_a_set::<Wide>();
    }
}
