//! Games of the engine against itself at a fixed depth from random openings: the positions
//! that data sets and measurements (the evaluation's tuning, proof times) are drawn from.

use super::Flags;
use super::tt::Table;
use crate::rules::Rules;
use crate::rules::mix::Random;
use crate::rules::position::Position;

/// Plays one game under `rules`: `random_plies` random legal plies drawn from `random`, then the engine at `depth` on both sides. Returns every position after the
/// first ply, in order; the last is the finished game.
pub fn play(rules: Rules, random_plies: u64, depth: u32, random: &mut Random) -> Vec<Position> {
    let mut position = match Position::start(rules) {
        Ok(position) => position,
        Err(_) => return Vec::new(),
    };
    let (table, flags) = (Table::new(4), Flags::default());
    let mut positions = Vec::new();
    for ply in 0.. {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = if ply < random_plies {
            moves[random.below(moves.len())]
        } else {
            let outcome = super::search_to_depth(&position, depth, &table, &flags);
            match outcome.best {
                Some(mv) => mv,
                None => break,
            }
        };
        position.play_unchecked(mv);
        if ply >= 1 {
            positions.push(position);
        }
    }
    positions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Capture, Opening};

    #[test]
    fn a_game_is_played_to_its_end_the_same_way_from_the_same_seed() {
        let rules = Rules::new(6, 6, Opening::Traditional, Capture::Straight).unwrap();
        let (mut first, mut second) = (Random::new(7), Random::new(7));
        let game = play(rules, 4, 2, &mut first);
        assert_eq!(game, play(rules, 4, 2, &mut second));
        assert_eq!(first.next_u64(), second.next_u64());
        assert!(game.last().unwrap().is_game_over());
        assert!(game[..game.len() - 1].iter().all(|p| !p.is_game_over()));
    }
}
