//! Variations: moves played from a position of the game other than its last, kept beside the
//! game as a tree without changing it. A node is a position: `m3` is the game's position
//! after 3 plies, `v7` the position a variation move led to.

use crate::rules::moves::Move;
use crate::rules::position::Position;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// A position of the game or of a variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Node {
    /// The game's position after this many plies.
    Main(usize),
    /// The position a variation move led to.
    Side(u32),
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Node::Main(ply) => write!(f, "m{ply}"),
            Node::Side(id) => write!(f, "v{id}"),
        }
    }
}

impl FromStr for Node {
    type Err = String;

    fn from_str(text: &str) -> Result<Node, String> {
        let bad = || format!("'{text}' is not a position of the game: m<plies> or v<number>");
        let (kind, number) = text.split_at_checked(1).ok_or_else(bad)?;
        match kind {
            "m" => number.parse().map(Node::Main).map_err(|_| bad()),
            "v" => number.parse().map(Node::Side).map_err(|_| bad()),
            _ => Err(bad()),
        }
    }
}

/// One variation move: where it was played, what, and the position it led to.
#[derive(Clone, Debug)]
pub struct Branch {
    /// The position it was played from.
    pub parent: Node,
    /// The move.
    pub mv: Move,
    /// The position after it.
    pub position: Position,
    /// Plies from the game's start to `position`.
    pub ply: usize,
    /// Its place among the moves from the same position: the lowest continues the line.
    rank: i64,
}

/// Every variation of a game.
#[derive(Clone, Debug, Default)]
pub struct Variations {
    branches: BTreeMap<u32, Branch>,
    next: u32,
}

impl Variations {
    /// The variation move `id`.
    pub fn get(&self, id: u32) -> Option<&Branch> {
        self.branches.get(&id)
    }

    /// Every variation move, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &Branch)> {
        self.branches.iter().map(|(id, branch)| (*id, branch))
    }

    /// The variation moves played from `parent`, in their order: the first continues the line
    /// (of a variation; from a game position the game's own move does), the others are its
    /// alternatives.
    pub fn children(&self, parent: Node) -> Vec<u32> {
        let mut children: Vec<(i64, u32)> = self
            .iter()
            .filter(|(_, b)| b.parent == parent)
            .map(|(id, b)| (b.rank, id))
            .collect();
        children.sort_unstable();
        children.into_iter().map(|(_, id)| id).collect()
    }

    /// Every variation move in the order of a walk of the tree: parents before children,
    /// siblings in their order.
    pub fn in_order(&self) -> Vec<u32> {
        let mut order = Vec::with_capacity(self.branches.len());
        let mut roots: Vec<(Node, i64, u32)> = self
            .iter()
            .filter(|(_, b)| matches!(b.parent, Node::Main(_)))
            .map(|(id, b)| (b.parent, b.rank, id))
            .collect();
        roots.sort_unstable();
        let mut stack: Vec<u32> = roots.into_iter().rev().map(|(_, _, id)| id).collect();
        while let Some(id) = stack.pop() {
            order.push(id);
            stack.extend(self.children(Node::Side(id)).into_iter().rev());
        }
        order
    }

    /// Makes variation move `id` the first of the moves from its position, so that its line
    /// continues the line it branched from; false when there is no such move.
    pub fn put_first(&mut self, id: u32) -> bool {
        let Some(parent) = self.branches.get(&id).map(|b| b.parent) else {
            return false;
        };
        let first = self
            .iter()
            .filter(|(_, b)| b.parent == parent)
            .map(|(_, b)| b.rank)
            .min()
            .unwrap_or(0);
        if let Some(branch) = self.branches.get_mut(&id) {
            branch.rank = first - 1;
        }
        true
    }

    /// The node for `mv` played from `parent` (to `position`, `ply` plies from the start):
    /// the variation move already there, or a new one.
    pub fn add(&mut self, parent: Node, mv: Move, position: Position, ply: usize) -> Node {
        if let Some((id, _)) = self.iter().find(|(_, b)| b.parent == parent && b.mv == mv) {
            return Node::Side(id);
        }
        self.next += 1;
        let branch = Branch {
            parent,
            mv,
            position,
            ply,
            rank: i64::from(self.next),
        };
        self.branches.insert(self.next, branch);
        Node::Side(self.next)
    }

    /// The game ply a node hangs from, and the variation moves from there to the node;
    /// `None` for a variation move that is not there.
    pub fn path(&self, node: Node) -> Option<(usize, Vec<Move>)> {
        let mut moves = Vec::new();
        let mut at = node;
        loop {
            match at {
                Node::Main(ply) => {
                    moves.reverse();
                    return Some((ply, moves));
                }
                Node::Side(id) => {
                    let branch = self.branches.get(&id)?;
                    moves.push(branch.mv);
                    at = branch.parent;
                }
            }
        }
    }

    /// Takes out the variation move `id` alone: the moves after it still name it as their
    /// parent until [`Variations::reparent`] moves them.
    pub fn detach(&mut self, id: u32) -> Option<Branch> {
        self.branches.remove(&id)
    }

    /// Hangs every move played from `from` on `to` instead.
    pub fn reparent(&mut self, from: Node, to: Node) {
        for branch in self.branches.values_mut() {
            if branch.parent == from {
                branch.parent = to;
            }
        }
    }

    /// Deletes the variation move `id` and every move after it.
    pub fn remove(&mut self, id: u32) -> bool {
        if self.branches.remove(&id).is_none() {
            return false;
        }
        self.prune();
        true
    }

    /// Deletes the variations hanging from game positions past `plies` (taken back).
    pub fn cut_after(&mut self, plies: usize) {
        self.branches
            .retain(|_, b| !matches!(b.parent, Node::Main(ply) if ply > plies));
        self.prune();
    }

    /// Deletes the moves whose parent is gone.
    fn prune(&mut self) {
        loop {
            let orphans: Vec<u32> = self
                .iter()
                .filter(
                    |(_, b)| matches!(b.parent, Node::Side(p) if !self.branches.contains_key(&p)),
                )
                .map(|(id, _)| id)
                .collect();
            if orphans.is_empty() {
                return;
            }
            for id in orphans {
                self.branches.remove(&id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn nodes_are_written_and_read_back() {
        for node in [Node::Main(0), Node::Main(31), Node::Side(7)] {
            assert_eq!(node.to_string().parse::<Node>(), Ok(node));
        }
        for bad in ["", "m", "x3", "v-1", "m3.5"] {
            assert!(bad.parse::<Node>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_tree_of_variations_is_grown_followed_and_cut() {
        let start = Position::start(Rules::default()).unwrap();
        let mut after = start;
        let mv: Move = "d5".parse().unwrap();
        after.play(mv).unwrap();
        let mut variations = Variations::default();
        let first = variations.add(Node::Main(0), mv, after, 1);
        assert_eq!(
            variations.add(Node::Main(0), mv, after, 1),
            first,
            "the same move twice is one node"
        );
        let reply: Move = "d4".parse().unwrap();
        let mut next = after;
        next.play(reply).unwrap();
        let second = variations.add(first, reply, next, 2);
        assert_eq!(variations.path(second), Some((0, vec![mv, reply])));
        let Node::Side(first_id) = first else {
            unreachable!()
        };
        assert!(variations.remove(first_id));
        assert_eq!(
            variations.path(second),
            None,
            "its continuation went with it"
        );
        variations.add(Node::Main(3), mv, after, 4);
        variations.cut_after(2);
        assert_eq!(variations.iter().count(), 0);
    }
}
