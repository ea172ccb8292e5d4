//! The rule options: board size, opening and capture style, and the masks derived from them.

use crate::rules::bits::Bits;
use crate::rules::square::{Direction, MAX_SIDE, MIN_SIDE, Square};
use once_cell::sync::Lazy;
use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;

/// How the two opening removals are chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Opening {
    /// Black removes a black stone from the central 2x2 block or a corner (even sizes only).
    #[default]
    Traditional,
    /// Black removes any black stone.
    Any,
}

/// How far one move may jump.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Capture {
    /// One or more jumps, all in the same direction.
    #[default]
    Straight,
    /// Exactly one jump.
    Single,
    /// One or more jumps, turning between them if desired.
    Turning,
}

impl Opening {
    /// Every opening rule.
    pub const ALL: [Opening; 2] = [Opening::Traditional, Opening::Any];
}

impl Capture {
    /// Every capture rule.
    pub const ALL: [Capture; 3] = [Capture::Straight, Capture::Single, Capture::Turning];

    /// Whether a move is exactly one jump.
    #[inline]
    pub fn single_jump(self) -> bool {
        match self {
            Capture::Single => true,
            Capture::Straight | Capture::Turning => false,
        }
    }

    /// Whether a multiple jump may change direction between its jumps.
    #[inline]
    pub fn turns(self) -> bool {
        match self {
            Capture::Turning => true,
            Capture::Straight | Capture::Single => false,
        }
    }
}

/// A rule option value that is not one of the documented names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownOption {
    /// What kind of option was being read (`opening`, `capture`).
    pub option: &'static str,
    /// The text that was given.
    pub given: String,
    /// The accepted names.
    pub expected: &'static str,
}

impl fmt::Display for UnknownOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} '{}': expected {}",
            self.option, self.given, self.expected
        )
    }
}

impl std::error::Error for UnknownOption {}

macro_rules! named_option {
    ($ty:ident, $option:literal, $($variant:ident = $name:literal),+) => {
        impl $ty {
            /// The documented name of this value.
            pub fn name(self) -> &'static str {
                match self { $($ty::$variant => $name),+ }
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
        impl FromStr for $ty {
            type Err = UnknownOption;
            fn from_str(text: &str) -> Result<Self, UnknownOption> {
                match text.to_ascii_lowercase().as_str() {
                    $($name => Ok($ty::$variant),)+
                    _ => Err(UnknownOption {
                        option: $option,
                        given: text.to_string(),
                        expected: concat!($($name, " "),+).trim_ascii_end(),
                    }),
                }
            }
        }
    };
}

named_option!(Opening, "opening", Traditional = "traditional", Any = "any");
named_option!(
    Capture,
    "capture",
    Straight = "straight",
    Single = "single",
    Turning = "turning"
);

/// Why a set of rules cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// A side is outside 2..=26.
    BadSize {
        /// The requested width.
        width: usize,
        /// The requested height.
        height: usize,
    },
    /// The traditional opening needs a centre 2x2 block and black corners: even sides.
    TraditionalNeedsEvenSides {
        /// The board's width.
        width: u8,
        /// The board's height.
        height: u8,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::BadSize { width, height } => write!(
                f,
                "board size {width}x{height} is not supported: each side must be {MIN_SIDE} to {MAX_SIDE}"
            ),
            RulesError::TraditionalNeedsEvenSides { width, height } => write!(
                f,
                "the traditional opening needs an even width and height, not {width}x{height}: use the 'any' opening"
            ),
        }
    }
}

impl std::error::Error for RulesError {}

/// A board size with the rule options: everything that makes one game of Konane differ from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    width: u8,
    height: u8,
    /// How the opening removals are chosen.
    pub opening: Opening,
    /// How far a move may jump.
    pub capture: Capture,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            width: 8,
            height: 8,
            opening: Opening::Traditional,
            capture: Capture::Straight,
        }
    }
}

impl Rules {
    /// True when `square` is in the centre 2x2 block or a corner: the squares the traditional
    /// opening lets Black empty (when they hold black stones).
    pub fn is_traditional_removal(&self, square: Square) -> bool {
        let (f, r) = (square.file(), square.rank());
        let (width, height) = (self.width, self.height);
        let central =
            (f == width / 2 || f + 1 == width / 2) && (r == height / 2 || r + 1 == height / 2);
        let corner = (f == 0 || f + 1 == width) && (r == 0 || r + 1 == height);
        central || corner
    }

    /// Rules for a `width` x `height` board; the size must be 2..=26 each way.
    pub fn new(
        width: usize,
        height: usize,
        opening: Opening,
        capture: Capture,
    ) -> Result<Rules, RulesError> {
        let side = |n: usize| {
            u8::try_from(n)
                .ok()
                .filter(|n| (MIN_SIDE..=MAX_SIDE).contains(n))
        };
        match (side(width), side(height)) {
            (Some(width), Some(height)) => Ok(Rules {
                width,
                height,
                opening,
                capture,
            }),
            _ => Err(RulesError::BadSize { width, height }),
        }
    }

    /// The number of files.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// The number of ranks.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// The number of squares.
    pub fn area(&self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    /// Refuses an opening removal that these rules cannot offer (traditional on an odd side).
    pub fn check_opening(&self) -> Result<(), RulesError> {
        let odd_side = self.width % 2 == 1 || self.height % 2 == 1;
        match self.opening {
            Opening::Traditional if odd_side => Err(RulesError::TraditionalNeedsEvenSides {
                width: self.width,
                height: self.height,
            }),
            Opening::Traditional | Opening::Any => Ok(()),
        }
    }

    /// True when `square` is on this board.
    pub fn contains(&self, square: Square) -> bool {
        square.file() < self.width && square.rank() < self.height
    }

    /// The bit index of an on-board `square`.
    pub fn index(&self, square: Square) -> usize {
        usize::from(square.file()) + usize::from(square.rank()) * usize::from(self.width)
    }

    /// The square of bit `index`.
    pub fn square(&self, index: usize) -> Square {
        let width = usize::from(self.width);
        Square::new((index % width) as u8, (index / width) as u8)
            .expect("a bit index on the board names a square")
    }

    /// Parses a size written `WxH` (`8x8`, `9x13`) and keeps the other options.
    pub fn with_size_text(self, text: &str) -> Result<Rules, String> {
        let (w, h) = text
            .split_once(['x', 'X'])
            .ok_or_else(|| format!("bad size '{text}': expected WIDTHxHEIGHT such as 8x8"))?;
        let parse = |part: &str| {
            part.parse::<usize>()
                .map_err(|_| format!("bad size '{text}': '{part}' is not a number"))
        };
        Rules::new(parse(w)?, parse(h)?, self.opening, self.capture).map_err(|e| e.to_string())
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}x{} opening {} capture {}",
            self.width, self.height, self.opening, self.capture
        )
    }
}

/// The masks of one board size for one bitboard type, computed once and shared.
#[derive(Debug)]
pub struct Layout<B> {
    /// The rules these masks belong to.
    pub rules: Rules,
    /// Every square of the board.
    pub all: B,
    /// Per direction (in [`Direction::ALL`] order): squares from which a jump stays on the board.
    pub jump_from: [B; 4],
    /// Per direction: squares from which one step stays on the board.
    pub step_from: [B; 4],
    /// Per direction: the index change of one step.
    pub step: [i32; 4],
    /// The square of each bit index, for turning bits back into notation quickly.
    pub squares: Vec<Square>,
    /// The squares Black may empty with the traditional opening: centre 2x2 and corners.
    pub traditional_removals: B,
}

impl<B: Bits> Layout<B> {
    /// The shared layout for `rules`; built on first use.
    pub fn get(rules: Rules) -> &'static Layout<B> {
        type Cache = HashMap<(TypeId, Rules), &'static (dyn Any + Send + Sync)>;
        static CACHE: Lazy<Mutex<Cache>> = Lazy::new(Default::default);
        let mut cache = CACHE.lock().unwrap_or_else(|poison| poison.into_inner());
        let entry = cache
            .entry((TypeId::of::<B>(), rules))
            .or_insert_with(|| Box::leak(Box::new(Layout::<B>::build(rules))));
        entry
            .downcast_ref::<Layout<B>>()
            .expect("the cache key names the layout's type")
    }

    fn build(rules: Rules) -> Layout<B> {
        assert!(
            rules.area() <= B::CAPACITY,
            "{rules} does not fit the bitboard"
        );
        let width = rules.width;
        let set_of = |keep: &dyn Fn(Square) -> bool| {
            (0..rules.area())
                .filter(|&i| keep(rules.square(i)))
                .fold(B::default(), |set, i| set | B::single(i))
        };
        let all = set_of(&|_| true);
        let reach = |steps: u8| {
            Direction::ALL.map(|direction| {
                set_of(&|square: Square| {
                    square
                        .offset(direction, steps)
                        .is_some_and(|target| rules.contains(target))
                })
            })
        };
        let step = Direction::ALL.map(|direction| {
            let (df, dr) = direction.delta();
            i32::from(df) + i32::from(dr) * i32::from(width)
        });
        let traditional_removals = set_of(&|square: Square| rules.is_traditional_removal(square));
        Layout {
            rules,
            all,
            jump_from: reach(2),
            step_from: reach(1),
            step,
            squares: (0..rules.area()).map(|i| rules.square(i)).collect(),
            traditional_removals,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_outside_2_to_26_are_refused() {
        for (w, h) in [(1, 8), (8, 1), (27, 8), (8, 27), (0, 0), (usize::MAX, 8)] {
            assert_eq!(
                Rules::new(w, h, Opening::Any, Capture::Straight),
                Err(RulesError::BadSize {
                    width: w,
                    height: h
                })
            );
        }
        assert!(Rules::new(26, 2, Opening::Any, Capture::Single).is_ok());
    }

    #[test]
    fn traditional_opening_needs_even_sides() {
        let rules = Rules::new(9, 13, Opening::Traditional, Capture::Straight).unwrap();
        let error = rules.check_opening().unwrap_err().to_string();
        assert!(error.contains("9x13") && error.contains("'any'"), "{error}");
        assert!(Rules::default().check_opening().is_ok());
    }

    #[test]
    fn option_names_round_trip_and_errors_list_the_choices() {
        for opening in [Opening::Traditional, Opening::Any] {
            assert_eq!(opening.name().parse(), Ok(opening));
        }
        for capture in Capture::ALL {
            assert_eq!(capture.name().parse(), Ok(capture));
        }
        let error = "diagonal".parse::<Capture>().unwrap_err().to_string();
        assert_eq!(
            error,
            "unknown capture 'diagonal': expected straight single turning"
        );
    }

    #[test]
    fn size_text_is_checked() {
        let rules = Rules::default();
        assert_eq!(rules.with_size_text("10x6").unwrap().width(), 10);
        for bad in ["", "8", "8x", "x8", "8x8x8", "axb", "30x30", "1x8"] {
            assert!(rules.with_size_text(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn traditional_removals_are_centre_and_corners() {
        let layout = Layout::<u64>::get(Rules::default());
        let squares: Vec<String> = layout
            .traditional_removals
            .squares()
            .map(|i| Rules::default().square(i).to_string())
            .collect();
        assert_eq!(squares, ["a1", "h1", "d4", "e4", "d5", "e5", "a8", "h8"]);
    }
}
