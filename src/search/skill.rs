//! Skill levels, for bot authors who need opponents of graded strength. Stockfish's `Skill
//! Level` is the model: below full strength the engine searches shallower, scores every root
//! move, and plays the move whose score plus a random bonus is highest. The bonus is drawn
//! from zero up to a weakness that grows as the level falls, so a weak level often prefers a
//! slightly worse move and never one far worse than the best it saw.

use super::eval;
use crate::rules::mix::splitmix64;
use crate::rules::moves::Move;

/// Full strength: the search as it is, with exact endgame solving.
pub const FULL: u8 = 20;

/// One move of mobility in evaluation units, half-way between an empty board and a full one:
/// the unit of the bonus and of the cap.
const MOVE: i32 = (eval::WEIGHTS[0][1] + eval::WEIGHTS[1][1]) / 2;

/// Scores are clamped to fifty moves of mobility before the bonus, so that forced wins and
/// losses count as very good and very bad, not as numbers thousands apart.
const SCORE_CAP: i32 = 50 * MOVE;

/// The deepest a level below [`FULL`] searches: 1 ply at level 0, 20 at level 19.
pub fn depth_limit(level: u8) -> u32 {
    1 + u32::from(level)
}

/// The largest random bonus at `level`, in evaluation units: a twentieth of the square of the
/// levels below full strength in moves of mobility, 20 moves at level 0, 1.2 at level 15.
pub fn weakness(level: u8) -> i32 {
    let below = i32::from(FULL.saturating_sub(level));
    below * below * MOVE / 20
}

/// The move to play among `scored` root moves (each with its score for the side to move),
/// with random bits from `seed`; `None` when there are none.
pub fn choose(scored: &[(Move, i32)], level: u8, seed: u64) -> Option<Move> {
    let range = weakness(level) as u64 + 1;
    scored
        .iter()
        .enumerate()
        .map(|(i, &(mv, score))| {
            let bonus = (splitmix64(seed ^ (i as u64).wrapping_mul(0x9e37_79b9)) % range) as i32;
            (score.clamp(-SCORE_CAP, SCORE_CAP) + bonus, mv)
        })
        .max_by_key(|&(value, _)| value)
        .map(|(_, mv)| mv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves() -> Vec<(Move, i32)> {
        ["a1", "b2", "c3"]
            .iter()
            .zip([10 * MOVE, 9 * MOVE, -40 * MOVE])
            .map(|(text, score)| (text.parse().unwrap(), score))
            .collect()
    }

    #[test]
    fn full_strength_is_never_random_and_weak_levels_vary() {
        let scored = moves();
        let best: Move = "a1".parse().unwrap();
        let blunder: Move = "c3".parse().unwrap();
        for seed in 0..200 {
            assert_eq!(choose(&scored, FULL, seed), Some(best));
            assert_ne!(
                choose(&scored, 0, seed),
                Some(blunder),
                "far worse is never chosen"
            );
        }
        let chosen: std::collections::HashSet<_> = (0..200)
            .filter_map(|seed| choose(&scored, 0, seed))
            .collect();
        assert_eq!(chosen.len(), 2, "level 0 plays the close second move too");
        assert_eq!(choose(&[], 5, 1), None);
        assert!(depth_limit(0) == 1 && depth_limit(19) == 20);
    }
}
