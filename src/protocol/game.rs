//! What every program that speaks the protocol keeps of the game: the rule options
//! (`Width`, `Height`, `Opening`, `Capture`), the position that `position` names, and the
//! answers to `query`. The engine and the bots of [`crate::bot`] share it, so that both read
//! positions and options the same way.

use crate::protocol::options::{EngineOption, OptionError, judge};
use crate::protocol::{Query, Start};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Color;
use crate::rules::square::{MAX_SIDE, MIN_SIDE};
use crate::rules::{Capture, Opening, Rules};
use once_cell::sync::Lazy;

/// The rule options, declared once: the handshake announces them and `setoption` is judged
/// by them.
pub static RULE_OPTIONS: Lazy<Vec<EngineOption>> = Lazy::new(|| {
    let side = (i64::from(MIN_SIDE), i64::from(MAX_SIDE));
    let openings: Vec<&str> = Opening::ALL.iter().map(|o| o.name()).collect();
    let captures: Vec<&str> = Capture::ALL.iter().map(|c| c.name()).collect();
    vec![
        EngineOption::spin("Width", 8, side.0, side.1),
        EngineOption::spin("Height", 8, side.0, side.1),
        EngineOption::combo("Opening", Opening::default().name(), &openings),
        EngineOption::combo("Capture", Capture::default().name(), &captures),
    ]
});

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
    /// Applies `setoption` for a rule option: `Ok(false)` when `name` is not one; the error
    /// names the option, what it takes and the value.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<bool, String> {
        let value = value.unwrap_or("").trim();
        let option = match judge(&RULE_OPTIONS, name, value) {
            Ok(option) => option,
            Err(OptionError::Unknown(..)) => return Ok(false),
            Err(refused) => return Err(refused.setoption_text()),
        };
        // The value was judged one the option takes; a reading that still fails says so.
        let unread = |why: String| format!("setoption: {} '{value}': {why}", option.name);
        match option.name.as_str() {
            "Width" => self.width = value.parse().map_err(|e| unread(format!("{e}")))?,
            "Height" => self.height = value.parse().map_err(|e| unread(format!("{e}")))?,
            "Opening" => self.opening = value.parse().map_err(|e| unread(format!("{e}")))?,
            "Capture" => self.capture = value.parse().map_err(|e| unread(format!("{e}")))?,
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
