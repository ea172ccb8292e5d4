//! Combinatorial game theory of short partizan games, as Konane positions are: each game kept
//! once in its canonical form, compared, added and told apart by outcome.
//!
//! A game is `{left options | right options}`; Left moves to a left option, Right to a right
//! one, and a player who cannot move loses. `G <= H` (Left, moving second, wins `H - G`) by
//! the recursive definition: `G <= H` unless some `G^L >= H` or some `H^R <= G`. Every
//! short game equals exactly one game without dominated or reversible options (its canonical
//! form), so two canonical games are equal in value exactly when they are the same [`Game`].
//! This module knows nothing of Konane; `crate::value` maps positions to games.

mod dyadic;
mod notation;

use crate::rules::mix::{digest, splitmix64};
pub use dyadic::Dyadic;
use std::collections::HashMap;

/// A game in a [`Games`] arena: the handle of its form. Handles from [`Games`]' public
/// methods are canonical forms, so equal handles are equal values and the reverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Game(u32);

/// Who wins a game, as combinatorial game theory names the four outcome classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Left wins whoever starts (the game is positive).
    Left,
    /// Right wins whoever starts (negative).
    Right,
    /// The player to move wins (fuzzy, confused with zero).
    Next,
    /// The player to move loses (zero).
    Previous,
}

impl Outcome {
    /// Every outcome class.
    pub const ALL: [Outcome; 4] = [
        Outcome::Left,
        Outcome::Right,
        Outcome::Next,
        Outcome::Previous,
    ];

    /// Whether Left wins when `left_starts` says who moves first.
    pub fn left_wins(self, left_starts: bool) -> bool {
        match self {
            Outcome::Left => true,
            Outcome::Right => false,
            Outcome::Next => left_starts,
            Outcome::Previous => !left_starts,
        }
    }
}

/// The options of a game form, each side sorted and without repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Form {
    left: Vec<Game>,
    right: Vec<Game>,
}

impl Form {
    /// A hash of the options: the digest of Left's, a separator, then Right's.
    fn fingerprint(&self) -> u64 {
        let separator = std::iter::once(u64::MAX);
        let left = self.left.iter().map(|game| u64::from(game.0));
        let right = self.right.iter().map(|game| u64::from(game.0));
        digest(0, left.chain(separator).chain(right))
    }
}

/// A memo of the comparisons `g <= h`, direct-mapped: each comparison has one slot, by a hash
/// of the pair, where a later comparison replaces it. Its memory is bounded (an unbounded map
/// held 35M comparisons, some 0.9 GB, for 10x3 at the corner), and it grows with the arena
/// up to [`MOST_COMPARISON_SLOTS`], starting afresh at each growth (it is only a memo).
#[derive(Debug, Default)]
struct Comparisons {
    /// Per slot 0 (empty), or the pair (31 bits each), a 1 marking the slot full, and the
    /// result bit.
    slots: Vec<u64>,
}

/// The most slots the comparisons' memo takes: 64 MB.
const MOST_COMPARISON_SLOTS: usize = 1 << 23;

impl Comparisons {
    /// The slot's content for the pair, or `None` when a game's handle needs over 31 bits.
    fn entry(g: Game, h: Game) -> Option<u64> {
        let fits = |game: Game| (game.0 < 1 << 31).then_some(u64::from(game.0));
        Some((fits(g)? << 31 | fits(h)?) << 2 | 2)
    }

    fn slot(&self, entry: u64) -> usize {
        (splitmix64(entry) as usize) & (self.slots.len() - 1)
    }

    /// The result of `g <= h`, if kept.
    fn get(&self, g: Game, h: Game) -> Option<bool> {
        let entry = Comparisons::entry(g, h)?;
        if self.slots.is_empty() {
            return None;
        }
        let kept = self.slots[self.slot(entry)];
        (kept & !1 == entry).then_some(kept & 1 == 1)
    }

    /// Keeps the result of `g <= h` (nothing until [`Comparisons::fit`] gave it slots).
    fn insert(&mut self, g: Game, h: Game, result: bool) {
        let Some(entry) = Comparisons::entry(g, h) else {
            return;
        };
        if self.slots.is_empty() {
            return;
        }
        let slot = self.slot(entry);
        self.slots[slot] = entry | u64::from(result);
    }

    /// Grows to twice the arena's `forms` (a power of two, at least 1,024 and at most
    /// [`MOST_COMPARISON_SLOTS`]), forgetting what it held; called as the arena grows.
    fn fit(&mut self, forms: usize) {
        let wanted = (2 * forms)
            .next_power_of_two()
            .clamp(1 << 10, MOST_COMPARISON_SLOTS);
        if self.slots.len() < wanted {
            self.slots = vec![0; wanted];
        }
    }
}

/// An arena of game forms with the results of comparisons and sums kept.
///
/// ```
/// use konane::cgt::{Games, Outcome};
///
/// let mut games = Games::new();
/// let zero = games.zero();
/// let star = games.game(&[zero], &[zero]); // {0|0} = *
/// let up = games.game(&[zero], &[star]); // {0|*} = ^
/// assert_eq!(games.outcome(star), Outcome::Next);
/// assert_eq!(games.outcome(up), Outcome::Left);
/// let star_plus_star = games.sum(star, star);
/// assert_eq!(star_plus_star, zero); // * + * = 0
/// let up_star = games.sum(up, star);
/// assert_eq!(games.notation(up_star), "^*");
/// let double_up = games.sum(up, up);
/// assert_eq!(games.notation(double_up), "^^");
/// ```
#[derive(Debug)]
pub struct Games {
    forms: Vec<Form>,
    /// Each form's handle by the form's [`Form::fingerprint`]; a number another form has taken
    /// goes on to the next number, so a form is kept once (in `forms`) and found exactly.
    handles: HashMap<u64, Game>,
    at_most: Comparisons,
    sums: HashMap<(Game, Game), Game>,
    negatives: HashMap<Game, Game>,
}

impl Default for Games {
    fn default() -> Games {
        Games::new()
    }
}

impl Games {
    /// An arena holding only zero, `{ | }`.
    pub fn new() -> Games {
        let mut games = Games {
            forms: Vec::new(),
            handles: HashMap::new(),
            at_most: Comparisons::default(),
            sums: HashMap::new(),
            negatives: HashMap::new(),
        };
        games.intern(Vec::new(), Vec::new());
        games
    }

    /// Zero, the game where neither player can move.
    pub fn zero(&self) -> Game {
        Game(0)
    }

    /// How many forms the arena holds (canonical forms and the forms met on the way to them).
    pub fn len(&self) -> usize {
        self.forms.len()
    }

    /// Always false: the arena holds zero from the start.
    pub fn is_empty(&self) -> bool {
        self.forms.is_empty()
    }

    /// Left's options of `game`.
    pub fn left_options(&self, game: Game) -> &[Game] {
        &self.form(game).left
    }

    /// Right's options of `game`.
    pub fn right_options(&self, game: Game) -> &[Game] {
        &self.form(game).right
    }

    fn form(&self, game: Game) -> &Form {
        &self.forms[game.0 as usize]
    }

    /// The handle of a form, adding it to the arena when new.
    fn intern(&mut self, mut left: Vec<Game>, mut right: Vec<Game>) -> Game {
        for side in [&mut left, &mut right] {
            side.sort_unstable();
            side.dedup();
        }
        let form = Form { left, right };
        let mut hash = form.fingerprint();
        while let Some(&game) = self.handles.get(&hash) {
            if *self.form(game) == form {
                return game;
            }
            hash = hash.wrapping_add(1);
        }
        let game = Game(u32::try_from(self.forms.len()).unwrap_or(u32::MAX));
        self.forms.push(form);
        self.handles.insert(hash, game);
        self.at_most.fit(self.forms.len());
        game
    }

    /// The canonical form of `{left | right}`, whose options are canonical games of this arena.
    pub fn game(&mut self, left: &[Game], right: &[Game]) -> Game {
        let (mut left, mut right) = (left.to_vec(), right.to_vec());
        loop {
            left = self.undominated(left, true);
            right = self.undominated(right, false);
            // Bypassing a reversible option keeps the value, so one form serves every test.
            let whole = self.intern(left.clone(), right.clone());
            let (new_left, left_changed) = self.bypass_reversible(&left, whole, true);
            let (new_right, right_changed) = self.bypass_reversible(&right, whole, false);
            if !left_changed && !right_changed {
                return whole;
            }
            (left, right) = (new_left, new_right);
        }
    }

    /// `options` without those another one dominates: for Left the smaller, for Right the
    /// larger.
    fn undominated(&mut self, mut options: Vec<Game>, left: bool) -> Vec<Game> {
        options.sort_unstable();
        options.dedup();
        let mut kept = Vec::with_capacity(options.len());
        for (i, &option) in options.iter().enumerate() {
            let dominated = options.iter().enumerate().any(|(j, &other)| {
                j != i
                    && if left {
                        self.le(option, other)
                    } else {
                        self.le(other, option)
                    }
            });
            if !dominated {
                kept.push(option);
            }
        }
        kept
    }

    /// `options` with each reversible option replaced by the options it reverses to: a Left
    /// option `A` is reversible when some `A^R <= whole`, and gives way to that `A^R`'s Left
    /// options; a Right option `B` when some `B^L >= whole`, giving way to `B^L`'s Right
    /// options. Also says whether anything changed.
    fn bypass_reversible(
        &mut self,
        options: &[Game],
        whole: Game,
        left: bool,
    ) -> (Vec<Game>, bool) {
        let mut result = Vec::with_capacity(options.len());
        let mut changed = false;
        for &option in options {
            let replies = if left {
                self.form(option).right.clone()
            } else {
                self.form(option).left.clone()
            };
            let reversing = replies.into_iter().find(|&reply| {
                if left {
                    self.le(reply, whole)
                } else {
                    self.le(whole, reply)
                }
            });
            match reversing {
                Some(reply) => {
                    changed = true;
                    let form = self.form(reply);
                    result.extend_from_slice(if left { &form.left } else { &form.right });
                }
                None => result.push(option),
            }
        }
        (result, changed)
    }

    /// Whether `g <= h`: neither a Left option of `g` is `>= h` nor a Right option of `h` is
    /// `<= g`.
    pub fn le(&mut self, g: Game, h: Game) -> bool {
        if g == h {
            return true;
        }
        if let Some(known) = self.at_most.get(g, h) {
            return known;
        }
        let result = !(0..self.form(g).left.len()).any(|i| {
            let gl = self.form(g).left[i];
            self.le(h, gl)
        }) && !(0..self.form(h).right.len()).any(|i| {
            let hr = self.form(h).right[i];
            self.le(hr, g)
        });
        self.at_most.insert(g, h, result);
        result
    }

    /// The outcome class of `game`.
    pub fn outcome(&mut self, game: Game) -> Outcome {
        let zero = self.zero();
        match (self.le(zero, game), self.le(game, zero)) {
            (true, true) => Outcome::Previous,
            (true, false) => Outcome::Left,
            (false, true) => Outcome::Right,
            (false, false) => Outcome::Next,
        }
    }

    /// The canonical form of `g + h`: the game where each player moves in either part.
    pub fn sum(&mut self, g: Game, h: Game) -> Game {
        let zero = self.zero();
        if g == zero {
            return h;
        }
        if h == zero {
            return g;
        }
        let key = (g.min(h), g.max(h));
        if let Some(&known) = self.sums.get(&key) {
            return known;
        }
        let (g_form, h_form) = (self.form(g).clone(), self.form(h).clone());
        let mut left = Vec::with_capacity(g_form.left.len() + h_form.left.len());
        let mut right = Vec::with_capacity(g_form.right.len() + h_form.right.len());
        for &gl in &g_form.left {
            left.push(self.sum(gl, h));
        }
        for &hl in &h_form.left {
            left.push(self.sum(g, hl));
        }
        for &gr in &g_form.right {
            right.push(self.sum(gr, h));
        }
        for &hr in &h_form.right {
            right.push(self.sum(g, hr));
        }
        let result = self.game(&left, &right);
        self.sums.insert(key, result);
        result
    }

    /// The sum of every game of `parts` (zero for none).
    pub fn sum_all(&mut self, parts: &[Game]) -> Game {
        parts
            .iter()
            .fold(self.zero(), |total, &part| self.sum(total, part))
    }

    /// `-game`: the game with Left and Right's roles exchanged.
    pub fn negate(&mut self, game: Game) -> Game {
        if let Some(&known) = self.negatives.get(&game) {
            return known;
        }
        let form = self.form(game).clone();
        let left: Vec<Game> = form.right.iter().map(|&gr| self.negate(gr)).collect();
        let right: Vec<Game> = form.left.iter().map(|&gl| self.negate(gl)).collect();
        // The negative of a canonical form is canonical: no step of `game` is needed.
        let result = self.intern(left, right);
        self.negatives.insert(game, result);
        result
    }

    /// The number `x` as a canonical game: `n = {n-1 | }`, `-n = { | -n+1}`,
    /// `m/2^k = {(m-1)/2^k | (m+1)/2^k}`.
    pub fn number(&mut self, x: Dyadic) -> Game {
        if x == Dyadic::ZERO {
            return self.zero();
        }
        let (numerator, exponent) = (x.numerator(), x.exponent());
        let below = Dyadic::new(numerator - 1, exponent).unwrap_or(Dyadic::ZERO);
        let above = Dyadic::new(numerator + 1, exponent).unwrap_or(Dyadic::ZERO);
        match (x.is_integer(), numerator > 0) {
            (true, true) => {
                let left = self.number(below);
                self.intern(vec![left], Vec::new())
            }
            (true, false) => {
                let right = self.number(above);
                self.intern(Vec::new(), vec![right])
            }
            (false, _) => {
                let (left, right) = (self.number(below), self.number(above));
                self.intern(vec![left], vec![right])
            }
        }
    }

    /// The nimber `*n = {0, *, ..., *(n-1) | 0, *, ..., *(n-1)}`.
    pub fn nimber(&mut self, n: u32) -> Game {
        let smaller: Vec<Game> = (0..n).map(|k| self.nimber(k)).collect();
        self.intern(smaller.clone(), smaller)
    }

    /// Up, `^ = {0 | *}`.
    pub fn up(&mut self) -> Game {
        let zero = self.zero();
        let star = self.nimber(1);
        self.intern(vec![zero], vec![star])
    }

    /// The number `game` is, if it is one.
    pub fn as_number(&self, game: Game) -> Option<Dyadic> {
        let form = self.form(game);
        let mut highest_left = None;
        for &gl in &form.left {
            let x = self.as_number(gl)?;
            highest_left = highest_left.max(Some(x));
        }
        let mut lowest_right: Option<Dyadic> = None;
        for &gr in &form.right {
            let x = self.as_number(gr)?;
            lowest_right = Some(lowest_right.map_or(x, |low| low.min(x)));
        }
        Dyadic::simplest_between(highest_left, lowest_right)
    }
}

#[cfg(test)]
mod tests;
