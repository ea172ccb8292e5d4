use super::*;
use crate::rules::mix::Random;

/// A game tree written out in full, with no simplification: the naive oracle.
#[derive(Clone, Debug)]
struct Tree {
    left: Vec<Tree>,
    right: Vec<Tree>,
}

/// `g <= h` straight from the definition, on trees, without memory.
fn naive_le(g: &Tree, h: &Tree) -> bool {
    !g.left.iter().any(|gl| naive_le(h, gl)) && !h.right.iter().any(|hr| naive_le(hr, g))
}

fn naive_eq(g: &Tree, h: &Tree) -> bool {
    naive_le(g, h) && naive_le(h, g)
}

/// The tree of a game of the arena.
fn tree(games: &Games, game: Game) -> Tree {
    Tree {
        left: games
            .left_options(game)
            .iter()
            .map(|&g| tree(games, g))
            .collect(),
        right: games
            .right_options(game)
            .iter()
            .map(|&g| tree(games, g))
            .collect(),
    }
}

/// A random tree of at most `depth` levels, with up to three options a side.
fn random_tree(random: &mut Random, depth: u32) -> Tree {
    let side = |random: &mut Random| {
        if depth == 0 {
            return Vec::new();
        }
        let count = random.below(4);
        (0..count).map(|_| random_tree(random, depth - 1)).collect()
    };
    let left = side(random);
    let right = side(random);
    Tree { left, right }
}

/// The canonical form of a tree, built bottom up through [`Games::game`].
fn canonical(games: &mut Games, tree: &Tree) -> Game {
    let left: Vec<Game> = tree.left.iter().map(|t| canonical(games, t)).collect();
    let right: Vec<Game> = tree.right.iter().map(|t| canonical(games, t)).collect();
    games.game(&left, &right)
}

fn sum_tree(g: &Tree, h: &Tree) -> Tree {
    Tree {
        left: g
            .left
            .iter()
            .map(|gl| sum_tree(gl, h))
            .chain(h.left.iter().map(|hl| sum_tree(g, hl)))
            .collect(),
        right: g
            .right
            .iter()
            .map(|gr| sum_tree(gr, h))
            .chain(h.right.iter().map(|hr| sum_tree(g, hr)))
            .collect(),
    }
}

#[test]
fn canonical_forms_equal_their_games_and_are_unique() {
    let mut random = Random::new(7);
    let mut games = Games::new();
    let mut seen: Vec<(Tree, Game)> = Vec::new();
    for _ in 0..300 {
        let raw = random_tree(&mut random, 3);
        let game = canonical(&mut games, &raw);
        let form = tree(&games, game);
        assert!(naive_eq(&raw, &form), "{raw:?} is not its form {form:?}");
        // Canonical: no dominated and no reversible options, by the naive comparison.
        for (options, left) in [(&form.left, true), (&form.right, false)] {
            for (i, a) in options.iter().enumerate() {
                for (j, b) in options.iter().enumerate() {
                    let dominated = if left { naive_le(a, b) } else { naive_le(b, a) };
                    assert!(i == j || !dominated, "dominated option in {form:?}");
                }
                let replies = if left { &a.right } else { &a.left };
                for reply in replies {
                    let reverses = if left {
                        naive_le(reply, &form)
                    } else {
                        naive_le(&form, reply)
                    };
                    assert!(!reverses, "reversible option in {form:?}");
                }
            }
        }
        // Equal values have one handle; different values different handles.
        for (other, handle) in &seen {
            assert_eq!(
                naive_eq(&raw, other),
                game == *handle,
                "{raw:?} vs {other:?}"
            );
            assert_eq!(games.le(game, *handle), naive_le(&raw, other));
        }
        seen.push((raw, game));
    }
}

#[test]
fn sums_and_outcomes_agree_with_the_trees() {
    let mut random = Random::new(11);
    let mut games = Games::new();
    for _ in 0..150 {
        let (g, h) = (random_tree(&mut random, 2), random_tree(&mut random, 2));
        let (cg, ch) = (canonical(&mut games, &g), canonical(&mut games, &h));
        let total = games.sum(cg, ch);
        let whole = sum_tree(&g, &h);
        assert!(naive_eq(&tree(&games, total), &whole));
        let zero = Tree {
            left: Vec::new(),
            right: Vec::new(),
        };
        let expected = match (naive_le(&zero, &whole), naive_le(&whole, &zero)) {
            (true, true) => Outcome::Previous,
            (true, false) => Outcome::Left,
            (false, true) => Outcome::Right,
            (false, false) => Outcome::Next,
        };
        assert_eq!(games.outcome(total), expected);
        let negative = games.negate(total);
        assert_eq!(games.sum(total, negative), games.zero());
    }
}

#[test]
fn numbers_nimbers_and_ups_behave_as_the_theory_says() {
    let mut games = Games::new();
    let d = |n, e| Dyadic::new(n, e).unwrap();
    for (a, b) in [(d(1, 1), d(1, 2)), (d(-3, 2), d(5, 0)), (d(7, 3), d(-7, 3))] {
        let (ga, gb) = (games.number(a), games.number(b));
        let total = games.sum(ga, gb);
        let expected = a.midpoint(b).unwrap();
        let doubled = Dyadic::new(expected.numerator(), expected.exponent() - 1).unwrap();
        assert_eq!(games.as_number(total), Some(doubled), "{a} + {b}");
    }
    for a in 0..8 {
        for b in 0..8 {
            let (ga, gb) = (games.nimber(a), games.nimber(b));
            let total = games.sum(ga, gb);
            assert_eq!(total, games.nimber(a ^ b), "*{a} + *{b}");
        }
    }
    let zero = games.zero();
    let star = games.nimber(1);
    assert_eq!(games.game(&[star], &[star]), zero, "{{*|*}} = 0");
    let up = games.up();
    let down = games.negate(up);
    assert_eq!(games.sum(up, down), zero);
    let one = games.number(Dyadic::integer(1));
    let half = games.game(&[zero], &[one]);
    assert_eq!(games.as_number(half), Some(d(1, 1)));
    let minus_one = games.number(Dyadic::integer(-1));
    assert_eq!(games.game(&[minus_one], &[]), zero, "{{-1|}} = 0");
}

#[test]
fn notation_follows_cgsuite() {
    let mut games = Games::new();
    let zero = games.zero();
    let one = games.number(Dyadic::integer(1));
    let minus_one = games.number(Dyadic::integer(-1));
    let star = games.nimber(1);
    let up = games.up();
    let down = games.negate(up);
    let down_star = games.sum(down, star);
    let three_ups = games.sum_all(&[up, up, up]);
    let half = games.number(Dyadic::new(1, 1).unwrap());
    let half_star = games.sum(half, star);
    let star_three = games.nimber(3);
    let plus_minus_one = games.game(&[one], &[minus_one]);
    let zero_minus_one = games.game(&[zero], &[minus_one]);
    let nested = games.game(&[zero], &[zero_minus_one]);
    let dominated = games.game(&[one, star], &[minus_one]);
    let two_left = games.game(&[zero, star], &[minus_one]);
    let cases = [
        (zero, "0"),
        (minus_one, "-1"),
        (half, "1/2"),
        (star, "*"),
        (star_three, "*3"),
        (half_star, "1/2*"),
        (up, "^"),
        (down_star, "v*"),
        (three_ups, "^3"),
        (plus_minus_one, "+-1"),
        (zero_minus_one, "{0|-1}"),
        (nested, "{0||0|-1}"),
        (dominated, "+-1"),
        (two_left, "{0,*|-1}"),
    ];
    for (game, text) in cases {
        assert_eq!(games.notation(game), text);
    }
}

#[test]
fn simplest_numbers_between_bounds() {
    let d = |n, e| Dyadic::new(n, e).unwrap();
    let cases = [
        (None, None, d(0, 0)),
        (Some(d(0, 0)), None, d(1, 0)),
        (None, Some(d(-3, 0)), d(-4, 0)),
        (Some(d(0, 0)), Some(d(1, 0)), d(1, 1)),
        (Some(d(1, 1)), Some(d(1, 0)), d(3, 2)),
        (Some(d(-5, 2)), Some(d(3, 0)), d(0, 0)),
        (Some(d(5, 3)), Some(d(3, 2)), d(11, 4)),
        (Some(d(3, 2)), Some(d(7, 2)), d(1, 0)),
    ];
    for (low, high, expected) in cases {
        assert_eq!(
            Dyadic::simplest_between(low, high),
            Some(expected),
            "{low:?} {high:?}"
        );
    }
    assert_eq!(Dyadic::simplest_between(Some(d(1, 0)), Some(d(1, 0))), None);
}

#[test]
fn the_comparisons_memo_keeps_each_pair_apart_and_forgets_when_it_grows() {
    let mut memo = Comparisons::default();
    let (g, h) = (Game(3), Game(7));
    // Before it is fitted to an arena it keeps nothing.
    memo.insert(g, h, true);
    assert_eq!(memo.get(g, h), None);
    memo.fit(10);
    memo.insert(g, h, true);
    memo.insert(h, g, false);
    assert_eq!(memo.get(g, h), Some(true));
    assert_eq!(memo.get(h, g), Some(false));
    assert_eq!(memo.get(g, g), None);
    assert_eq!(memo.slots.len(), 1 << 10);
    // An arena of 1000 forms wants 2048 slots: the memo starts afresh.
    memo.fit(1000);
    assert_eq!(memo.slots.len(), 1 << 11);
    assert_eq!(memo.get(g, h), None);
    memo.insert(Game(1), Game(2), true);
    assert_eq!(memo.get(Game(1), Game(2)), Some(true));
    // Fitting to a smaller arena keeps what it holds.
    memo.fit(10);
    assert_eq!(memo.get(Game(1), Game(2)), Some(true));
    // A handle past 31 bits is never kept.
    memo.insert(Game(1 << 31), g, true);
    assert_eq!(memo.get(Game(1 << 31), g), None);
}
