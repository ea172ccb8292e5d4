//! What every program that speaks the protocol keeps of the game: the rule options
//! (`Width`, `Height`, `Opening`, `Capture`), the position that `position` names, and the
//! answers to `query`. The engine and the bots of [`crate::bot`] share it, so that both read
//! positions and options the same way.

use crate::protocol::{Query, Start};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Color;
use crate::rules::{Capture, Opening, Rules};

/// The `option` lines of the rule options, as the handshake announces them.
pub const RULE_OPTION_LINES: [&str; 4] = [
    "option name Width type spin default 8 min 2 max 26",
    "option name Height type spin default 8 min 2 max 26",
    "option name Opening type combo default traditional var traditional var any",
    "option name Capture type combo default straight var straight var single var turning",
];

/// Reads a `spin` option's value; the error names the option, its range and the value.
pub fn spin(name: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| {
            format!("setoption: {name} must be a whole number from {min} to {max}, not '{value}'")
        })
}

/// The rule options and the position they and `position` commands set up.
#[derive(Clone, Debug)]
pub struct GameSetup {
    width: usize,
    height: usize,
    opening: Opening,
    capture: Capture,
    /// The position of the last good `position` command (8x8 start before any).
    pub position: Position,
}

impl Default for GameSetup {
    fn default() -> GameSetup {
        GameSetup {
            width: 8,
            height: 8,
            opening: Opening::Traditional,
            capture: Capture::Straight,
            position: Position::start(Rules::default()).expect("8x8 traditional is playable"),
        }
    }
}

impl GameSetup {
    /// Applies `setoption` for a rule option: `Ok(false)` when `name` is not one.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<bool, String> {
        let value = value.unwrap_or("");
        match name.to_ascii_lowercase().as_str() {
            "width" => self.width = spin("Width", value, 2, 26)? as usize,
            "height" => self.height = spin("Height", value, 2, 26)? as usize,
            "opening" => {
                self.opening = value
                    .trim()
                    .parse()
                    .map_err(|e| format!("setoption: {e}"))?
            }
            "capture" => {
                self.capture = value
                    .trim()
                    .parse()
                    .map_err(|e| format!("setoption: {e}"))?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The rules the options name (an odd side with the traditional opening is refused).
    pub fn rules(&self) -> Result<Rules, String> {
        Rules::new(self.width, self.height, self.opening, self.capture).map_err(|e| e.to_string())
    }

    /// Sets up the position of a `position` command. The error says what was wrong, and the
    /// previous position stays.
    pub fn set_position(&mut self, start: &Start, moves: &[Move]) -> Result<(), String> {
        let mut position = match start {
            Start::StartPos => Position::start(self.rules()?).map_err(|e| e.to_string())?,
            Start::Fen(text) => {
                Position::from_fen(text, self.opening, self.capture).map_err(|e| e.to_string())?
            }
        };
        for (i, &mv) in moves.iter().enumerate() {
            position
                .play(mv)
                .map_err(|e| format!("illegal move {mv} (move {} of the list): {e}", i + 1))?;
        }
        self.position = position;
        Ok(())
    }

    /// The `response` line that answers `query` about the position.
    pub fn answer(&self, query: Query) -> String {
        let answer = match query {
            Query::GameOver => self.position.is_game_over().to_string(),
            Query::P1Turn => (self.position.side_to_move() == Color::Black).to_string(),
            Query::Result => match self.position.winner() {
                Some(Color::Black) => "p1win".to_string(),
                Some(Color::White) => "p2win".to_string(),
                None => "none".to_string(),
            },
        };
        format!("response {answer}")
    }
}
