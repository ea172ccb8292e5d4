//! PGN games read whole, as trees: the tags, the main line, every variation (nested in
//! parentheses), comments and move marks (`!`, `?`, `$1`), and written back the same way. The
//! moves are kept as text: the reader knows PGN, not the rules.

use std::fmt::Write;

/// One move of a game with what follows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnNode {
    /// The move, in notation (empty for the game's root).
    pub mv: String,
    /// Marks after the move: `$1` for `!`, `$2` for `?`, `$3` `!!`, `$4` `??`, `$5` `!?`,
    /// `$6` `?!`, or any other number given as `$n`.
    pub nags: Vec<u8>,
    /// The comment after the move (before the first move, for the root).
    pub comment: Option<String>,
    /// The moves that follow: the first continues the line, the others are variations.
    pub children: Vec<PgnNode>,
}

/// A game read from PGN.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnTree {
    /// The tags, in their order.
    pub tags: Vec<(String, String)>,
    /// The position before the first move: its comment and the moves from it.
    pub root: PgnNode,
    /// The result after the moves (`1-0`, `0-1`, `*`), when written.
    pub result: Option<String>,
}

/// The mark words PGN writers use for the first six NAGs (a person's marks of a move).
pub const MARKS: [(&str, u8); 6] = [
    ("!", 1),
    ("?", 2),
    ("!!", 3),
    ("??", 4),
    ("!?", 5),
    ("?!", 6),
];

/// A piece of PGN movetext.
#[derive(Debug, PartialEq)]
enum Token {
    Move(String),
    Nag(u8),
    Comment(String),
    Open,
    Close,
    Result(String),
}

/// The tokens of `body`, or what could not be read.
fn tokens(body: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                let mut comment = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c) => comment.push(c),
                        None => return Err("a comment '{' is never closed".to_string()),
                    }
                }
                tokens.push(Token::Comment(comment.trim().to_string()));
            }
            ';' => {
                let comment: String = chars.by_ref().take_while(|&c| c != '\n').collect();
                tokens.push(Token::Comment(comment.trim().to_string()));
            }
            '(' => tokens.push(Token::Open),
            ')' => tokens.push(Token::Close),
            c if c.is_whitespace() => {}
            c => {
                let mut word = c.to_string();
                while let Some(&next) = chars.peek() {
                    if next.is_whitespace() || "{}();".contains(next) {
                        break;
                    }
                    word.push(next);
                    chars.next();
                }
                word_tokens(&word, &mut tokens)?;
            }
        }
    }
    Ok(tokens)
}

/// The tokens of one word: a move number (skipped), a result, a NAG, or a move with its marks.
fn word_tokens(word: &str, tokens: &mut Vec<Token>) -> Result<(), String> {
    if ["1-0", "0-1", "*", "1/2-1/2"].contains(&word) {
        tokens.push(Token::Result(word.to_string()));
        return Ok(());
    }
    if let Some(number) = word.strip_prefix('$') {
        let nag = number
            .parse()
            .map_err(|_| format!("'{word}' is not a mark: $ and a number 0 to 255"))?;
        tokens.push(Token::Nag(nag));
        return Ok(());
    }
    // Move numbers, glued to the move or not: `12.`, `12...`, `12.d5`.
    let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    if word.is_empty() {
        return Ok(());
    }
    let mv = word.trim_end_matches(['!', '?']);
    let marks = &word[mv.len()..];
    if !mv.is_empty() {
        tokens.push(Token::Move(mv.to_string()));
    }
    if !marks.is_empty() {
        let (_, nag) = MARKS
            .iter()
            .find(|(mark, _)| *mark == marks)
            .ok_or_else(|| format!("'{marks}' after {mv} is not a mark (!, ?, !!, ??, !?, ?!)"))?;
        tokens.push(Token::Nag(*nag));
    }
    Ok(())
}

/// Builds the tree of one game from its movetext tokens.
fn tree(tokens: Vec<Token>) -> Result<(PgnNode, Option<String>), String> {
    // The path from the root to the node the next move follows, as child indices, and for
    // each open variation the path to return to.
    let mut root = PgnNode::default();
    let mut path: Vec<usize> = Vec::new();
    let mut open: Vec<Vec<usize>> = Vec::new();
    let mut result = None;
    for token in tokens {
        if result.is_some() {
            return Err("moves after the result".to_string());
        }
        match token {
            Token::Move(mv) => {
                let node = node_at(&mut root, &path);
                node.children.push(PgnNode {
                    mv,
                    ..PgnNode::default()
                });
                path.push(node.children.len() - 1);
            }
            Token::Nag(nag) => {
                if path.is_empty() {
                    return Err(format!("the mark ${nag} comes before any move"));
                }
                node_at(&mut root, &path).nags.push(nag);
            }
            Token::Comment(text) => {
                let node = node_at(&mut root, &path);
                node.comment = Some(match node.comment.take() {
                    Some(before) => format!("{before} {text}"),
                    None => text,
                });
            }
            Token::Open => {
                // A variation replaces the last move: it starts where that move started.
                if path.is_empty() {
                    return Err("a variation '(' comes before any move".to_string());
                }
                open.push(path.clone());
                path.pop();
            }
            Token::Close => {
                path = open.pop().ok_or("a ')' closes no variation")?;
            }
            Token::Result(text) if open.is_empty() => result = Some(text),
            Token::Result(text) => return Err(format!("the result {text} inside a variation")),
        }
    }
    if !open.is_empty() {
        return Err("a variation '(' is never closed".to_string());
    }
    Ok((root, result))
}

/// The node `path` (child indices) leads to from `root`.
fn node_at<'a>(root: &'a mut PgnNode, path: &[usize]) -> &'a mut PgnNode {
    path.iter()
        .fold(root, |node, &index| &mut node.children[index])
}

/// Reads every game of PGN `text` (a bare list of moves is one game without tags). The error
/// names the game and what could not be read in it.
pub fn read_games(text: &str) -> Result<Vec<PgnTree>, String> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut body = String::new();
    let mut finish = |tags: &mut Vec<(String, String)>, body: &mut String| {
        let number = games.len() + 1;
        let named = |why: String| format!("game {number}: {why}");
        let (root, result) = tree(tokens(body).map_err(named)?).map_err(named)?;
        games.push(PgnTree {
            tags: std::mem::take(tags),
            root,
            result,
        });
        body.clear();
        Ok::<(), String>(())
    };
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(tag) = trimmed.strip_prefix('[') {
            if !body.trim().is_empty() {
                finish(&mut tags, &mut body)?;
            }
            tags.push(read_tag(tag).map_err(|why| format!("line {}: {why}", number + 1))?);
        } else if !trimmed.starts_with('%') {
            body += line;
            body.push('\n');
        }
    }
    if !body.trim().is_empty() || !tags.is_empty() {
        finish(&mut tags, &mut body)?;
    }
    Ok(games)
}

/// One tag line after its `[`: its name and value.
fn read_tag(tag: &str) -> Result<(String, String), String> {
    let tag = tag.strip_suffix(']').ok_or("a tag must end with ']'")?;
    let (name, value) = tag.split_once(' ').ok_or("a tag is [Name \"value\"]")?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or("a tag's value is in quotes")?;
    Ok((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// `game` as PGN: its tags, then the moves with their numbers (the first ply is Black's unless
/// `first_is_white`), marks as `$n`, comments in braces and variations in parentheses, then
/// the result (`*` when none is given).
pub fn write_game(game: &PgnTree, first_is_white: bool) -> String {
    let mut text = String::new();
    for (name, value) in &game.tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(text, "[{name} \"{value}\"]");
    }
    if !game.tags.is_empty() {
        text.push('\n');
    }
    let mut words = Vec::new();
    if let Some(comment) = &game.root.comment {
        words.push(format!("{{{comment}}}"));
    }
    let first_ply = usize::from(first_is_white);
    write_line(&game.root, first_ply, false, &mut words);
    words.push(game.result.clone().unwrap_or_else(|| "*".to_string()));
    // Lines of about 80 characters.
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            text += &line;
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() && !word.starts_with(')') {
            line.push(' ');
        }
        line += &word;
    }
    text += &line;
    text += "\n\n";
    text
}

/// The words of the line after `node`, whose next move is ply `ply` (0: Black's first);
/// `numbered` when the move before it was written without a comment or a variation between,
/// so that a reply by White needs no number of its own.
fn write_line(node: &PgnNode, ply: usize, numbered: bool, words: &mut Vec<String>) {
    let mut node = node;
    let mut ply = ply;
    let mut numbered = numbered;
    while let Some((main, variations)) = node.children.split_first() {
        let number = ply / 2 + 1;
        if ply.is_multiple_of(2) {
            words.push(format!("{number}. {}", main.mv));
        } else if numbered {
            words.push(main.mv.clone());
        } else {
            words.push(format!("{number}... {}", main.mv));
        }
        write_marks(main, words);
        numbered = main.comment.is_none() && variations.is_empty();
        for variation in variations {
            let number = ply / 2 + 1;
            let dots = if ply.is_multiple_of(2) { "." } else { "..." };
            words.push(format!("({number}{dots} {}", variation.mv));
            write_marks(variation, words);
            write_line(variation, ply + 1, variation.comment.is_none(), words);
            if let Some(last) = words.last_mut() {
                last.push(')');
            }
        }
        node = main;
        ply += 1;
    }
}

/// A node's marks and comment.
fn write_marks(node: &PgnNode, words: &mut Vec<String>) {
    for nag in &node.nags {
        words.push(format!("${nag}"));
    }
    if let Some(comment) = &node.comment {
        words.push(format!("{{{comment}}}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variations_comments_and_marks_are_read_in_their_places() {
        let text = "[Event \"t\"]\n[Board \"6x6\"]\n\n{start} 1. d3 d4 2. b3d3 {good} $1 (2. f3d3? (2. d1d3) d2d4) 2... c1c3!? 3. b1b3 *\n";
        let games = read_games(text).unwrap();
        assert_eq!(games.len(), 1);
        let game = &games[0];
        assert_eq!(game.tags[1], ("Board".to_string(), "6x6".to_string()));
        assert_eq!(game.root.comment.as_deref(), Some("start"));
        let d4 = &game.root.children[0].children[0];
        assert_eq!(d4.mv, "d4");
        let moves: Vec<&str> = d4.children.iter().map(|n| n.mv.as_str()).collect();
        assert_eq!(moves, ["b3d3", "f3d3", "d1d3"]);
        assert_eq!(d4.children[0].comment.as_deref(), Some("good"));
        assert_eq!(d4.children[0].nags, [1]);
        assert_eq!(d4.children[1].nags, [2]);
        assert_eq!(d4.children[1].children[0].mv, "d2d4");
        assert_eq!(d4.children[0].children[0].mv, "c1c3");
        assert_eq!(d4.children[0].children[0].nags, [5]);
        assert_eq!(game.result.as_deref(), Some("*"));
    }

    #[test]
    fn a_game_written_reads_back_the_same() {
        let text = "[Event \"t\"]\n\n1. d3 d4 2. b3d3 $1 {good} (2. f3d3 $2 d2d4) (2. d1d3) 2... c1c3 3. b1b3 (3. f5d5) 1-0\n";
        let game = read_games(text).unwrap().remove(0);
        let written = write_game(&game, false);
        assert_eq!(read_games(&written).unwrap(), vec![game]);
        assert!(written.contains("(2. f3d3 $2 d2d4)"), "{written}");
        assert!(written.contains("(3. f5d5) 1-0"), "{written}");
    }

    #[test]
    fn games_are_split_at_their_tags_and_bad_text_is_named() {
        let two = "[Event \"a\"]\n\n1. d3 d4 *\n\n[Event \"b\"]\n\n1. c4 *\n";
        let games = read_games(two).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].root.children[0].mv, "c4");
        assert_eq!(
            read_games("d5 e5 f5d5").unwrap()[0].root.children[0].mv,
            "d5"
        );
        for (bad, why) in [
            ("1. d3 (d4", "game 1: a variation '(' is never closed"),
            ("1. d3 )", "game 1: a ')' closes no variation"),
            ("( d3 )", "game 1: a variation '(' comes before any move"),
            ("1. d3 {open", "game 1: a comment '{' is never closed"),
            ("1. d3?? d4!!! ", "game 1: '!!!' after d4 is not a mark"),
            ("1. d3 * d4", "game 1: moves after the result"),
            ("[Event a]", "line 1: a tag's value is in quotes"),
        ] {
            let error = read_games(bad).unwrap_err();
            assert!(error.starts_with(why), "{bad}: {error}");
        }
    }
}
