//! PGN through the crate's reader and writer of game trees (`arbiter::pgn_tree`), as nested
//! dicts that `konane.pgn` makes its `Game` and `GameNode` objects of.

use crate::error;
use konane::arbiter::pgn_tree::{PgnNode, PgnTree, read_games, write_game};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A node as a dict: `move`, `nags`, `comment` and `children` (dicts of the same kind).
fn node_dict<'py>(py: Python<'py>, node: &PgnNode) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("move", &node.mv)?;
    dict.set_item("nags", &node.nags)?;
    dict.set_item("comment", &node.comment)?;
    let children = PyList::empty(py);
    for child in &node.children {
        children.append(node_dict(py, child)?)?;
    }
    dict.set_item("children", children)?;
    Ok(dict)
}

/// A node from a dict [`node_dict`] makes.
fn node_of(dict: &Bound<'_, PyDict>) -> PyResult<PgnNode> {
    let item = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        dict.get_item(key)?
            .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(key.to_string()))
    };
    let children = item("children")?
        .try_iter()?
        .map(|child| node_of(child?.cast::<PyDict>()?))
        .collect::<PyResult<_>>()?;
    Ok(PgnNode {
        mv: item("move")?.extract()?,
        nags: item("nags")?.extract()?,
        comment: item("comment")?.extract()?,
        children,
    })
}

/// Every game of PGN `text` as {"tags": [(name, value)], "result": str or None, "root":
/// node}; raises `ParseError` naming the game and what could not be read.
#[pyfunction]
pub fn read_pgn<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyList>> {
    let games = read_games(text).map_err(|e| error(py, "ParseError", e))?;
    let list = PyList::empty(py);
    for game in &games {
        let dict = PyDict::new(py);
        dict.set_item("tags", &game.tags)?;
        dict.set_item("result", &game.result)?;
        dict.set_item("root", node_dict(py, &game.root)?)?;
        list.append(dict)?;
    }
    Ok(list)
}

/// The PGN text of a game given as `read_pgn` gives one; its first ply is White's when
/// `first_is_white`.
#[pyfunction]
pub fn write_pgn(game: &Bound<'_, PyDict>, first_is_white: bool) -> PyResult<String> {
    let root = game
        .get_item("root")?
        .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err("root"))?;
    let tree = PgnTree {
        tags: match game.get_item("tags")? {
            Some(tags) => tags.extract()?,
            None => Vec::new(),
        },
        root: node_of(root.cast::<PyDict>()?)?,
        result: match game.get_item("result")? {
            Some(result) => result.extract()?,
            None => None,
        },
    };
    Ok(write_game(&tree, first_is_white))
}
