//! The one mixer of the crate, splitmix64, the digest of many words and the seeded random
//! source built on it: hash keys, table buckets, fingerprints, random openings and random test
//! positions all draw from here.

/// One step of the splitmix64 generator: a well-mixed 64-bit value from a counter.
pub const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One word taken into a digest: a splitmix64 step over their exclusive or.
pub const fn absorb(digest: u64, item: u64) -> u64 {
    splitmix64(digest ^ item)
}

/// Many words folded into one well-mixed word by [`absorb`], started from `seed`.
pub fn digest(seed: u64, items: impl IntoIterator<Item = u64>) -> u64 {
    items.into_iter().fold(seed, absorb)
}

/// A seeded random source: the same seed gives the same numbers on every machine.
#[derive(Clone, Debug)]
pub struct Random(u64);

impl Random {
    /// A source started from `seed`.
    pub fn new(seed: u64) -> Random {
        Random(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = splitmix64(self.0);
        self.0
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_numbers_each_time_and_in_range() {
        let (mut a, mut b) = (Random::new(7), Random::new(7));
        for n in 1..100 {
            let drawn = a.below(n);
            assert_eq!(drawn, b.below(n));
            assert!(drawn < n);
        }
        assert_eq!(Random::new(1).below(0), 0);
        assert_ne!(Random::new(1).next_u64(), Random::new(2).next_u64());
    }

    #[test]
    fn a_digest_tells_order_and_seed_apart() {
        assert_eq!(digest(5, []), 5);
        assert_eq!(digest(0, [3]), splitmix64(3));
        assert_ne!(digest(0, [1, 2]), digest(0, [2, 1]));
        assert_ne!(digest(0, [1, 2]), digest(1, [1, 2]));
    }
}
