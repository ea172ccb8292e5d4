//! Independent regions: groups of stones that no sequence of moves can ever bring into
//! contact, so that the position is the sum of the games they are (combinatorial game theory).
//!
//! A capture needs its jumping stone and the jumped stone side by side in a line, and lands on
//! the next square of that line. So where a group's stones may ever stand after `k` captures
//! among themselves is bounded by growing its squares `k` times, each time by every square `c`
//! with `c - d` and `c - 2d` already reached (for a direction `d`); a group of `n` stones makes
//! at most `n - 1` captures. Two groups are independent when neither's reach touches or borders
//! the other's: until a first move involving both, each stays inside its reach, and that first
//! move would need a stone of one next to a stone of the other. Groups that might meet are
//! merged, and the bound computed again, until no two meet.

use crate::rules::bits::Bits;
use crate::rules::board::Board;
use crate::rules::square::Color;

impl<B: Bits> Board<B> {
    /// The stones of each independent region, in order of their lowest square. Stones with no
    /// capture left between them and nothing in reach still form regions of their own (worth
    /// nothing to either side). [`Position::regions`] gives the regions as positions.
    ///
    /// [`Position::regions`]: crate::Position::regions
    ///
    /// ```
    /// use konane::{Capture, Opening, Position};
    ///
    /// // Two pairs far apart on the first rank of an 8x2 board.
    /// let position = Position::from_fen("8/wb4wb b", Opening::Any, Capture::Straight)?;
    /// assert_eq!(position.regions().len(), 2);
    /// // Closer together, captures could bring them into contact.
    /// let position = Position::from_fen("8/wb2wb2 b", Opening::Any, Capture::Straight)?;
    /// assert_eq!(position.regions().len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn region_stones(&self) -> Vec<B> {
        let stones = self.stones(Color::Black) | self.stones(Color::White);
        let mut groups = self.touching_groups(stones);
        let mut reaches: Vec<B> = groups.iter().map(|&group| self.reach(group)).collect();
        let mut bordered: Vec<B> = reaches.iter().map(|&reach| self.grow(reach)).collect();
        // Meeting is symmetric (one reach borders the other's), so pairs i < j suffice; after
        // a merge only the merged group's reach is computed again.
        while let Some((i, j)) = (0..groups.len()).find_map(|i| {
            (i + 1..groups.len())
                .find(|&j| !(bordered[i] & reaches[j]).is_empty())
                .map(|j| (i, j))
        }) {
            let joined = groups.swap_remove(j);
            groups[i] |= joined;
            reaches.swap_remove(j);
            bordered.swap_remove(j);
            reaches[i] = self.reach(groups[i]);
            bordered[i] = self.grow(reaches[i]);
        }
        groups.sort_by_key(|group| group.lowest());
        groups
    }

    /// The squares the stones of `group` could ever stand on, playing among themselves.
    fn reach(&self, group: B) -> B {
        let layout = self.layout();
        let mut reach = group;
        for _ in 1..group.count() {
            let mut landings = B::default();
            for (d, &step) in layout.step.iter().enumerate() {
                let jumpers = reach & layout.jump_from[d] & reach.shift(-step);
                landings |= jumpers.shift(2 * step);
            }
            if (landings & !reach).is_empty() {
                break;
            }
            reach |= landings;
        }
        reach
    }

    /// `squares` and every square next to one of them.
    fn grow(&self, squares: B) -> B {
        let layout = self.layout();
        (0..layout.step.len()).fold(squares, |grown, d| {
            grown | (squares & layout.step_from[d]).shift(layout.step[d])
        })
    }

    /// The groups of stones joined by side-by-side neighbours.
    fn touching_groups(&self, mut stones: B) -> Vec<B> {
        let mut groups = Vec::new();
        while !stones.is_empty() {
            let group = self.touching_group(stones);
            stones ^= group;
            groups.push(group);
        }
        groups
    }

    /// The stones of `stones` joined to its lowest one through stones next to each other.
    fn touching_group(&self, stones: B) -> B {
        let mut group = B::single(stones.lowest());
        loop {
            let grown = self.grow(group) & stones;
            if grown == group {
                return group;
            }
            group = grown;
        }
    }
}
