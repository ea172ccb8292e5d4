//! A position drawn for people: Unicode text for terminals and an SVG picture that Jupyter
//! shows by itself, the last move marked.

use konane::rules::{Color, Move, Position, Square};
use std::fmt::Write;

/// Pixels of one square of the picture.
const SQUARE: usize = 40;
/// Pixels of the margin that holds the file letters and rank numbers.
const MARGIN: usize = 20;

/// The board in Unicode, top rank first: `●` black, `○` white, `·` an empty square, with rank
/// numbers on the left and file letters below.
pub fn unicode(position: &Position) -> String {
    let rules = position.rules();
    let (width, height) = (rules.width(), rules.height());
    let mut text = String::new();
    for rank in (0..height).rev() {
        let _ = write!(text, "{:>2} ", rank + 1);
        for file in 0..width {
            let mark = match Square::new(file, rank).and_then(|at| position.stone_on(at)) {
                Some(Color::Black) => '●',
                Some(Color::White) => '○',
                None => '·',
            };
            text.push(' ');
            text.push(mark);
        }
        text.push('\n');
    }
    text += "   ";
    for file in 0..width {
        text.push(' ');
        text.push(char::from(b'a' + file));
    }
    text
}

/// The board as an SVG picture, `last` (if any) marked: its start square and each landing.
pub fn svg(position: &Position, last: Option<Move>) -> String {
    let rules = position.rules();
    let (width, height) = (usize::from(rules.width()), usize::from(rules.height()));
    let (pixels_wide, pixels_high) = (width * SQUARE + MARGIN, height * SQUARE + MARGIN);
    let marked: Vec<Square> = last.map_or_else(Vec::new, |mv| {
        let mut squares = vec![mv.from()];
        squares.extend(mv.landings());
        squares
    });
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {pixels_wide} {pixels_high}\" \
         width=\"{pixels_wide}\" height=\"{pixels_high}\" role=\"img\" \
         aria-label=\"Konane position {}\">",
        position.fen()
    );
    for rank in 0..height {
        for file in 0..width {
            let (x, y) = (MARGIN + file * SQUARE, (height - 1 - rank) * SQUARE);
            let square = Square::new(file as u8, rank as u8);
            let fill = match (
                (file + rank) % 2 == 1,
                square.is_some_and(|s| marked.contains(&s)),
            ) {
                (_, true) => "#cdd26a",
                (true, false) => "#b58863",
                (false, false) => "#f0d9b5",
            };
            let _ = write!(
                svg,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{fill}\"/>"
            );
            if let Some(color) = square.and_then(|at| position.stone_on(at)) {
                let (fill, stroke) = match color {
                    Color::Black => ("#222", "#000"),
                    Color::White => ("#fafafa", "#555"),
                };
                let _ = write!(
                    svg,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"2\"/>",
                    x + SQUARE / 2,
                    y + SQUARE / 2,
                    SQUARE * 2 / 5
                );
            }
        }
    }
    let label = |svg: &mut String, x: usize, y: usize, text: String| {
        let _ = write!(
            svg,
            "<text x=\"{x}\" y=\"{y}\" font-size=\"12\" font-family=\"sans-serif\" \
             text-anchor=\"middle\" fill=\"#333\">{text}</text>"
        );
    };
    for rank in 0..height {
        let y = (height - 1 - rank) * SQUARE + SQUARE / 2 + 4;
        label(&mut svg, MARGIN / 2, y, (rank + 1).to_string());
    }
    for file in 0..width {
        let x = MARGIN + file * SQUARE + SQUARE / 2;
        let letter = char::from(b'a' + file as u8).to_string();
        label(&mut svg, x, height * SQUARE + MARGIN - 5, letter);
    }
    svg.push_str("</svg>");
    svg
}
