//! What a move carries besides itself: a person's marks (`!`, `?`, ... kept as PGN's NAG
//! numbers) and comment, and for an engine's move of the game its verdict
//! ([`MoveEval`], written as cutechess-cli writes it: `{+0.35/12 0.50s}`).

use crate::arbiter::pgn_tree::MARKS;
use crate::arbiter::verdict::MoveEval;

/// The longest comment kept, in characters: a comment is a note, not a file.
pub const MAX_COMMENT: usize = 2000;

/// What one move of the game or of a variation carries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// Marks as PGN's NAG numbers (1 to 6 are the person's marks; others read from PGN are
    /// kept as they came).
    pub nags: Vec<u8>,
    /// The person's comment.
    pub comment: Option<String>,
    /// The engine's verdict, for an engine's move of the game.
    pub eval: Option<MoveEval>,
}

impl Notes {
    /// The notes a PGN move's marks and comment give: an evaluation at the comment's start
    /// (as this program and cutechess-cli write them) is read as one.
    pub fn from_pgn(nags: &[u8], comment: Option<&str>) -> Notes {
        let (eval, comment) = match comment.map(|c| (MoveEval::read(c), c)) {
            Some((Some((eval, rest)), _)) => (Some(eval), rest),
            Some((None, text)) => (None, text.trim()),
            None => (None, ""),
        };
        Notes {
            nags: nags.to_vec(),
            comment: (!comment.is_empty()).then(|| comment.to_string()),
            eval,
        }
    }

    /// The comment PGN writes after the move: the evaluation, then the person's words.
    pub fn pgn_comment(&self) -> Option<String> {
        let parts: Vec<String> = self
            .eval
            .map(|eval| eval.text())
            .into_iter()
            .chain(self.comment.clone())
            .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    }

    /// Gives the move the person's mark `mark` (one of [`MARKS`]' words), or none when
    /// `mark` is empty, and the comment `comment` (none when blank); the engine's evaluation
    /// and marks from PGN beyond the six stay. The error names what was refused.
    pub fn annotate(&mut self, mark: &str, comment: &str) -> Result<(), String> {
        let nag = match mark {
            "" => None,
            mark => Some(
                MARKS
                    .iter()
                    .find(|(word, _)| *word == mark)
                    .map(|(_, nag)| *nag)
                    .ok_or_else(|| {
                        format!("annotate: '{mark}' is not a mark (!, ?, !!, ??, !?, ?!)")
                    })?,
            ),
        };
        let comment = comment.trim();
        if comment.chars().count() > MAX_COMMENT {
            return Err(format!(
                "annotate: the comment has {} characters, at most {MAX_COMMENT}",
                comment.chars().count()
            ));
        }
        // A comment ends at the first `}` in PGN: braces would cut it short there.
        if let Some(brace) = comment.chars().find(|c| matches!(c, '{' | '}')) {
            return Err(format!(
                "annotate: a comment cannot hold '{brace}' (PGN ends comments at braces)"
            ));
        }
        self.nags.retain(|n| !MARKS.iter().any(|(_, nag)| nag == n));
        self.nags.extend(nag);
        self.comment = (!comment.is_empty()).then(|| comment.to_string());
        Ok(())
    }

    /// True when there is nothing to keep.
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty() && self.comment.is_none() && self.eval.is_none()
    }

    /// The person's mark (one of [`MARKS`]' words), if the move has one.
    pub fn mark(&self) -> Option<&'static str> {
        self.nags.iter().find_map(|n| {
            MARKS
                .iter()
                .find(|(_, nag)| nag == n)
                .map(|(word, _)| *word)
        })
    }

    /// The marks as people read them, one space apart: `!`, `?! $10`, `$n` for NAGs past
    /// the six marks.
    pub fn mark_text(&self) -> String {
        let words: Vec<String> = self
            .nags
            .iter()
            .map(|n| match MARKS.iter().find(|(_, nag)| nag == n) {
                Some((word, _)) => word.to_string(),
                None => format!("${n}"),
            })
            .collect();
        words.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_comments_are_set_checked_and_kept_apart_from_the_evaluation() {
        let mut notes = Notes::from_pgn(&[1, 10], Some("+0.35/12 0.50s well played"));
        assert_eq!(notes.comment.as_deref(), Some("well played"));
        assert_eq!(notes.mark_text(), "! $10");
        assert_eq!(notes.mark(), Some("!"));
        notes.annotate("?!", "dubious").unwrap();
        assert_eq!(notes.nags, [10, 6]);
        assert_eq!(
            (notes.mark(), notes.mark_text().as_str()),
            (Some("?!"), "$10 ?!")
        );
        assert_eq!(Notes::from_pgn(&[10, 22], None).mark_text(), "$10 $22");
        assert_eq!(
            notes.pgn_comment().as_deref(),
            Some("+0.35/12 0.50s dubious")
        );
        assert!(notes.annotate("!!!", "").unwrap_err().contains("'!!!'"));
        assert!(notes.annotate("", "a {brace}").unwrap_err().contains("'{'"));
        let long = "x".repeat(MAX_COMMENT + 1);
        assert!(notes.annotate("", &long).unwrap_err().contains("2001"));
        assert_eq!(
            notes.comment.as_deref(),
            Some("dubious"),
            "refusals change nothing"
        );
        notes.annotate("", "  ").unwrap();
        assert_eq!(
            (notes.comment.clone(), notes.nags.clone()),
            (None, vec![10])
        );
        assert!(Notes::from_pgn(&[], Some("  ")).is_empty());
    }
}
