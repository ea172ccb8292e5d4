//! What the checks set up: the rules the engine announced, random positions, the `position`
//! and `go` commands, and the moves they expect.

use super::*;

/// What the engine announced in its handshake that the checks use.
#[derive(Clone, Debug, Default)]
pub(super) struct Announced {
    pub(super) width: Option<(u8, u8, u8)>,
    pub(super) height: Option<(u8, u8, u8)>,
    pub(super) openings: Vec<Opening>,
    pub(super) captures: Vec<Capture>,
    /// The engine announced a `MultiPV` spin that allows several lines.
    pub(super) multipv: bool,
}

impl Announced {
    pub(super) fn from_options(options: &[EngineOption]) -> Announced {
        let find = |name: &str| options.iter().find(|o| o.name.eq_ignore_ascii_case(name));
        let spin = |name: &str| {
            let option = find(name)?;
            let clamp = |v: i64| v.clamp(2, 26) as u8;
            let default = option.default.as_deref()?.parse().ok()?;
            Some((clamp(option.min?), clamp(option.max?), clamp(default)))
        };
        let combo =
            |name: &str| -> Vec<String> { find(name).map_or(Vec::new(), |o| o.vars.clone()) };
        Announced {
            width: spin("Width"),
            height: spin("Height"),
            openings: combo("Opening")
                .iter()
                .filter_map(|v| v.parse().ok())
                .collect(),
            captures: combo("Capture")
                .iter()
                .filter_map(|v| v.parse().ok())
                .collect(),
            multipv: find("MultiPV").is_some_and(|o| o.kind == "spin" && o.max >= Some(3)),
        }
    }

    /// The rules the engine plays when nothing is set: its defaults, else 8x8.
    pub(super) fn default_rules(&self) -> Rules {
        let side = |spin: Option<(u8, u8, u8)>| usize::from(spin.map_or(8, |(_, _, d)| d));
        Rules::new(
            side(self.width),
            side(self.height),
            Opening::Traditional,
            Capture::Straight,
        )
        .unwrap_or_default()
    }

    /// The `setoption` lines that select `rules`, for the options the engine announced.
    pub(super) fn select(&self, rules: Rules) -> Vec<String> {
        let mut lines = Vec::new();
        if self.width.is_some() {
            lines.push(format!("setoption name Width value {}", rules.width()));
        }
        if self.height.is_some() {
            lines.push(format!("setoption name Height value {}", rules.height()));
        }
        if !self.openings.is_empty() {
            lines.push(format!("setoption name Opening value {}", rules.opening));
        }
        if !self.captures.is_empty() {
            lines.push(format!("setoption name Capture value {}", rules.capture));
        }
        lines
    }

    /// A description of the rule space, for the evidence.
    pub(super) fn describe(&self) -> String {
        let range = |spin: Option<(u8, u8, u8)>| {
            spin.map_or("8".to_string(), |(min, max, _)| format!("{min}..{max}"))
        };
        let list = |names: Vec<&str>| {
            if names.is_empty() {
                "default".to_string()
            } else {
                names.join("/")
            }
        };
        format!(
            "width {}, height {}, opening {}, capture {}",
            range(self.width),
            range(self.height),
            list(self.openings.iter().map(|o| o.name()).collect()),
            list(self.captures.iter().map(|c| c.name()).collect())
        )
    }
}

/// One of `items` drawn from `random`, or `otherwise` when there are none.
fn pick<T: Copy>(random: &mut Random, items: &[T], otherwise: T) -> T {
    if items.is_empty() {
        otherwise
    } else {
        items[random.below(items.len())]
    }
}

/// A random position under the announced rules that is not over, with the moves from the
/// start that reach it.
pub(super) fn random_position(
    announced: &Announced,
    random: &mut Random,
) -> (Rules, Vec<Move>, Position) {
    loop {
        let side = |random: &mut Random, spin: Option<(u8, u8, u8)>| match spin {
            Some((min, max, _)) => usize::from(min) + random.below(usize::from(max - min) + 1),
            None => 8,
        };
        let width = side(random, announced.width);
        let height = side(random, announced.height);
        let opening = pick(random, &announced.openings, Opening::Traditional);
        let capture = pick(random, &announced.captures, Capture::Straight);
        let Ok(rules) = Rules::new(width, height, opening, capture) else {
            continue;
        };
        let Ok(mut position) = Position::start(rules) else {
            continue;
        };
        let plies = random.below(width * height / 2 + 3);
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = position.legal_moves();
            let mv = legal[random.below(legal.len())];
            let mut next = position;
            next.play_unchecked(mv);
            if next.is_game_over() {
                break;
            }
            position = next;
            moves.push(mv);
        }
        return (rules, moves, position);
    }
}

/// Sets up a position worth thinking about and starts `go infinite` on it; waits 200 ms so
/// that the search is well under way.
pub(super) fn start_infinite(s: &mut Session, announced: &Announced) -> Result<Position, Evidence> {
    let (_, moves, position) = opening_line(announced.default_rules());
    s.send(&position_command(&position, &moves, false))?;
    s.send("go infinite")?;
    std::thread::sleep(Duration::from_millis(200));
    Ok(position)
}

/// The `position` command for `moves` from the start, or for the position string.
pub(super) fn position_command(position: &Position, moves: &[Move], as_fen: bool) -> String {
    if as_fen {
        return format!("position fen {}", position.fen());
    }
    let mut command = "position startpos".to_string();
    if !moves.is_empty() {
        let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        command += &format!(" moves {}", texts.join(" "));
    }
    command
}

/// Checks that `text` is a legal move in `position`, naming what was wrong if not.
pub(super) fn legal_in(position: &Position, text: &str, asked: &str) -> Result<(), Evidence> {
    let mv: Move = text.parse().map_err(|e| {
        format!(
            "{asked}: got \"bestmove {text}\", which is not a move ({e}); legal: {}",
            some_moves(position)
        )
    })?;
    let mut after = *position;
    after.play(mv).map_err(|e| {
        format!(
            "{asked}: got \"bestmove {text}\", which is illegal here ({e}); legal: {}",
            some_moves(position)
        )
    })
}

/// A few legal moves, for the evidence.
pub(super) fn some_moves(position: &Position) -> String {
    let moves = position.legal_moves();
    let mut texts: Vec<String> = moves.iter().take(6).map(|m| m.to_string()).collect();
    if moves.len() > 6 {
        texts.push(format!("... ({} in all)", moves.len()));
    }
    if texts.is_empty() {
        "none".to_string()
    } else {
        texts.join(" ")
    }
}

/// A position of `rules`' size in which the side to move (Black) has no move: one black and
/// one white stone in opposite corners.
pub(super) fn no_move_position(rules: Rules) -> String {
    let (width, height) = (usize::from(rules.width()), usize::from(rules.height()));
    let mut ranks = Vec::new();
    for rank in (0..height).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 0..width {
            let stone = match (file, rank) {
                (0, r) if r == height - 1 => Some('b'),
                (f, 0) if f == width - 1 => Some('w'),
                _ => None,
            };
            match stone {
                Some(letter) => {
                    if empty > 0 {
                        text += &empty.to_string();
                        empty = 0;
                    }
                    text.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text += &empty.to_string();
        }
        ranks.push(text);
    }
    format!("{} b", ranks.join("/"))
}

/// The `go` parameters of a clock, in the dialect's names.
pub(super) fn clock_go(protocol: &str, side: Color, millis: u64) -> String {
    let (black, white, binc, winc) = if protocol == "ugi" {
        ("p1time", "p2time", "p1inc", "p2inc")
    } else {
        ("btime", "wtime", "binc", "winc")
    };
    let (mine, theirs) = match side {
        Color::Black => (millis, 60_000),
        Color::White => (60_000, millis),
    };
    format!("go {black} {mine} {white} {theirs} {binc} 0 {winc} 0")
}

/// The start of `rules` after the two opening removals that leave Black the most moves (a
/// position worth thinking about), or the start itself when no removal can be made.
pub(super) fn opening_line(rules: Rules) -> (Rules, Vec<Move>, Position) {
    let start = Position::start(rules).unwrap_or_else(|_| {
        let any = Rules::new(
            rules.width().into(),
            rules.height().into(),
            Opening::Any,
            rules.capture,
        )
        .expect("a size that exists");
        Position::start(any).expect("any opening fits every size")
    });
    let mut best = (0, Vec::new(), start);
    for first in start.legal_moves() {
        let mut after_first = start;
        after_first.play_unchecked(first);
        for second in after_first.legal_moves() {
            let mut position = after_first;
            position.play_unchecked(second);
            let replies = position.count_moves();
            if replies > best.0 {
                best = (replies, vec![first, second], position);
            }
        }
    }
    (rules, best.1, best.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_no_move_position_has_no_move() {
        for (w, h) in [(2, 2), (8, 8), (3, 7), (26, 26)] {
            let rules = Rules::new(w, h, Opening::Any, Capture::Straight).unwrap();
            let fen = no_move_position(rules);
            let position = Position::from_fen(&fen, Opening::Any, Capture::Straight).unwrap();
            assert!(position.is_game_over(), "{fen}");
            assert_eq!(position.winner(), Some(Color::White));
        }
    }
}
