//! Helpers shared by the integration tests: a seeded random source and a naive move generator.
#![allow(dead_code)]

pub mod arbiter;
pub mod gui;
pub mod naive;
pub mod process;
pub mod scratch;

/// A small seeded random source (splitmix64), so every random test is reproducible.
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        konane::rules::mix::splitmix64(self.0)
    }

    /// A number in `0..n`; `n` must not be 0.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
