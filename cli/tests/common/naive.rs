//! A deliberately naive Konane move generator: a plain array of squares, the rules read
//! straight from RULES.md, moves as text. It shares nothing with the library but the
//! position-string reader, so that the two can check each other.

use konane::{Capture, Diagram, Opening};

/// A position held as one array of squares.
#[derive(Clone)]
pub struct Naive {
    width: i32,
    height: i32,
    /// 'b', 'w' or '.', rank 1 first.
    cells: Vec<char>,
    side: char,
    opening: Opening,
    capture: Capture,
}

fn name(file: i32, rank: i32) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

const STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

impl Naive {
    /// Reads a position string.
    pub fn from_fen(text: &str, opening: Opening, capture: Capture) -> Naive {
        let diagram = Diagram::parse(text).expect("valid position string");
        Naive {
            width: diagram.width as i32,
            height: diagram.height as i32,
            cells: diagram
                .squares
                .iter()
                .map(|s| match s {
                    Some(konane::Color::Black) => 'b',
                    Some(konane::Color::White) => 'w',
                    None => '.',
                })
                .collect(),
            side: if diagram.side == konane::Color::Black {
                'b'
            } else {
                'w'
            },
            opening,
            capture,
        }
    }

    fn at(&self, file: i32, rank: i32) -> Option<char> {
        (file >= 0 && rank >= 0 && file < self.width && rank < self.height)
            .then(|| self.cells[(rank * self.width + file) as usize])
    }

    fn set(&mut self, file: i32, rank: i32, value: char) {
        self.cells[(rank * self.width + file) as usize] = value;
    }

    fn enemy(&self) -> char {
        if self.side == 'b' { 'w' } else { 'b' }
    }

    /// The whole position as text (cells and side to move), for memo tables.
    pub fn key(&self) -> String {
        let mut key: String = self.cells.iter().collect();
        key.push(self.side);
        key
    }

    /// Every legal move, as text, with the position it leads to.
    pub fn moves(&self) -> Vec<(String, Naive)> {
        let holes = self.cells.iter().filter(|&&c| c == '.').count();
        let mut out = Vec::new();
        if holes == 0 && self.side == 'b' {
            for rank in 0..self.height {
                for file in 0..self.width {
                    let corner = (file == 0 || file == self.width - 1)
                        && (rank == 0 || rank == self.height - 1);
                    let centre = (file == self.width / 2 || file == self.width / 2 - 1)
                        && (rank == self.height / 2 || rank == self.height / 2 - 1);
                    let allowed = self.opening == Opening::Any || corner || centre;
                    if self.at(file, rank) == Some('b') && allowed {
                        out.push(self.removal(file, rank));
                    }
                }
            }
        } else if holes == 1 && self.side == 'w' {
            let hole = self.cells.iter().position(|&c| c == '.').unwrap() as i32;
            let (hf, hr) = (hole % self.width, hole / self.width);
            for rank in 0..self.height {
                for file in 0..self.width {
                    let adjacent = (file - hf).abs() + (rank - hr).abs() == 1;
                    if adjacent && self.at(file, rank) == Some('w') {
                        out.push(self.removal(file, rank));
                    }
                }
            }
        } else if holes > 0 {
            for rank in 0..self.height {
                for file in 0..self.width {
                    if self.at(file, rank) == Some(self.side) {
                        let mut start = self.clone();
                        start.set(file, rank, '.');
                        start.extend(file, rank, name(file, rank), None, &mut out);
                    }
                }
            }
        }
        out
    }

    fn removal(&self, file: i32, rank: i32) -> (String, Naive) {
        let mut next = self.clone();
        next.set(file, rank, '.');
        next.side = self.enemy();
        (name(file, rank), next)
    }

    /// Adds every jump from (file, rank) onwards; `self` has the moving stone lifted off.
    fn extend(
        &self,
        file: i32,
        rank: i32,
        text: String,
        last: Option<(i32, i32)>,
        out: &mut Vec<(String, Naive)>,
    ) {
        for step in STEPS {
            let allowed = match (self.capture, last) {
                (_, None) => true,
                (Capture::Single, Some(_)) => false,
                (Capture::Straight, Some(previous)) => previous == step,
                (Capture::Turning, Some(_)) => true,
            };
            let (of, or) = (file + step.0, rank + step.1);
            let (tf, tr) = (file + 2 * step.0, rank + 2 * step.1);
            if !allowed || self.at(of, or) != Some(self.enemy()) || self.at(tf, tr) != Some('.') {
                continue;
            }
            let mut after = self.clone();
            after.set(of, or, '.');
            // The notation names a square only where the path turns or ends.
            let path = if last == Some(step) {
                let cut = text.rfind(|c: char| c.is_ascii_lowercase()).unwrap();
                format!("{}{}", &text[..cut], name(tf, tr))
            } else {
                format!("{text}{}", name(tf, tr))
            };
            let mut landed = after.clone();
            landed.set(tf, tr, self.side);
            landed.side = self.enemy();
            out.push((path.clone(), landed));
            after.extend(tf, tr, path, Some(step), out);
        }
    }

    /// Leaf positions `depth` plies ahead.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|(_, next)| next.perft(depth - 1))
            .sum()
    }
}
