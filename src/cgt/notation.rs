//! Games written as CGSuite writes them: numbers (`3`, `-1/2`), nimbers (`*`, `*3`, `1/2*`),
//! ups and downs (`^`, `v*`, `^^`, `^3`), switches `+-1`, and other games in braces with
//! CGSuite's shorthand of repeated bars (`{0||0|-1}` for `{0|{0|-1}}`).

use crate::cgt::{Dyadic, Game, Games};

/// The most ups tried when writing a game as a number plus ups.
const MOST_UPS: usize = 8;
/// The largest nimber tried beside ups.
const MOST_STAR_WITH_UPS: u32 = 3;

/// A game written out without its outer braces, and how many bars separate its sides (0 for
/// a game written without braces at all).
struct Written {
    text: String,
    bars: usize,
}

impl Written {
    /// The text as an option of another game: braced unless it needs none.
    fn as_option(&self) -> String {
        if self.bars == 0 {
            self.text.clone()
        } else {
            format!("{{{}}}", self.text)
        }
    }
}

impl Games {
    /// `game` as CGSuite writes it.
    pub fn notation(&mut self, game: Game) -> String {
        self.written(game).as_option()
    }

    fn written(&mut self, game: Game) -> Written {
        if let Some(text) = self.named(game) {
            return Written { text, bars: 0 };
        }
        let (left, right) = (
            self.left_options(game).to_vec(),
            self.right_options(game).to_vec(),
        );
        let (left_text, left_bars) = self.side(&left);
        let (right_text, right_bars) = self.side(&right);
        let bars = left_bars.max(right_bars) + 1;
        Written {
            text: format!("{left_text}{}{right_text}", "|".repeat(bars)),
            bars,
        }
    }

    /// One side's options: a lone braced option is written without its braces, its bars
    /// counted, as CGSuite's shorthand does.
    fn side(&mut self, options: &[Game]) -> (String, usize) {
        if let [only] = options {
            let written = self.written(*only);
            return (written.text, written.bars);
        }
        let texts: Vec<String> = options
            .iter()
            .map(|&option| self.written(option).as_option())
            .collect();
        (texts.join(","), 0)
    }

    /// The short name of `game`, if it is a number, a number plus a nimber, a number plus
    /// ups and a nimber, or a switch `+-x`.
    fn named(&mut self, game: Game) -> Option<String> {
        if let Some(x) = self.as_number(game) {
            return Some(x.to_string());
        }
        if let Some((x, n)) = self.as_number_and_nimber(game) {
            return Some(format!("{}{}", number_prefix(x), star(n)));
        }
        if let Some(text) = self.as_ups(game) {
            return Some(text);
        }
        if let ([left], [right]) = (self.left_options(game), self.right_options(game))
            && let (Some(a), Some(b)) = (self.as_number(*left), self.as_number(*right))
            && a == b.negated()
        {
            return Some(format!("+-{a}"));
        }
        None
    }

    /// `(x, n)` when `game` is the number `x` plus the nimber `*n`, `n >= 1`: its canonical
    /// form is `{x, x*, ..., x*(n-1) | the same}`.
    fn as_number_and_nimber(&self, game: Game) -> Option<(Dyadic, u32)> {
        let (left, right) = (self.left_options(game), self.right_options(game));
        if left.is_empty() || left != right {
            return None;
        }
        let mut number = None;
        let mut nimbers = Vec::with_capacity(left.len());
        for &option in left {
            let (x, n) = match self.as_number(option) {
                Some(x) => (x, 0),
                None => self.as_number_and_nimber(option)?,
            };
            if *number.get_or_insert(x) != x {
                return None;
            }
            nimbers.push(n);
        }
        nimbers.sort_unstable();
        let n = u32::try_from(nimbers.len()).ok()?;
        (nimbers.iter().copied().eq(0..n)).then_some((number?, n))
    }

    /// `game` written as a number plus ups (or downs) plus a nimber, when it is one with at
    /// most eight ups.
    fn as_ups(&mut self, game: Game) -> Option<String> {
        let x = self.left_stop(game)?;
        if self.right_stop(game)? != x {
            return None;
        }
        let minus_x = self.number(x.negated());
        let rest = self.sum(game, minus_x);
        let up = self.up();
        let down = self.negate(up);
        for (step, letter) in [(up, "^"), (down, "v")] {
            let mut ups = self.zero();
            for count in 1..=MOST_UPS {
                ups = self.sum(ups, step);
                for n in 0..=MOST_STAR_WITH_UPS {
                    let nimber = self.nimber(n);
                    if self.sum(ups, nimber) == rest {
                        let arrows = if count <= 2 {
                            letter.repeat(count)
                        } else {
                            format!("{letter}{count}")
                        };
                        let nimber = if n == 0 { String::new() } else { star(n) };
                        return Some(format!("{}{arrows}{nimber}", number_prefix(x)));
                    }
                }
            }
        }
        None
    }

    /// The number Left reaches when Left starts and both play well: `x` for a number `x`,
    /// else the best right stop among Left's options.
    fn left_stop(&self, game: Game) -> Option<Dyadic> {
        if let Some(x) = self.as_number(game) {
            return Some(x);
        }
        let mut best = None;
        for &option in self.left_options(game) {
            best = best.max(Some(self.right_stop(option)?));
        }
        best
    }

    /// The number reached when Right starts: the least left stop among Right's options.
    fn right_stop(&self, game: Game) -> Option<Dyadic> {
        if let Some(x) = self.as_number(game) {
            return Some(x);
        }
        let mut best: Option<Dyadic> = None;
        for &option in self.right_options(game) {
            let stop = self.left_stop(option)?;
            best = Some(best.map_or(stop, |b| b.min(stop)));
        }
        best
    }
}

/// A number written before a nimber or ups: nothing for zero.
fn number_prefix(x: Dyadic) -> String {
    if x == Dyadic::ZERO {
        String::new()
    } else {
        x.to_string()
    }
}

/// `*` for `*1`, else `*n`.
fn star(n: u32) -> String {
    if n == 1 {
        "*".to_string()
    } else {
        format!("*{n}")
    }
}
