// The Konane page: draws what the server sends and sends the person's intents. The server
// referees; the legal moves it sends are what the board offers to click. Stepping through
// the game is this page's own: other pages and the game itself do not move it.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const CELL = 40;
const MARGIN = 30;
// The smallest square a finger can hit; a bigger board scrolls in its frame.
const MIN_TOUCH_SQUARE = 26;

let state = null;       // the game, as the server last sent it
let receivedAt = 0;     // when (performance.now()) it came, for the running clock
let viewNode = null;    // the position shown when stepping back ("m3", "v2"); null follows the game
let viewed = null;      // that position, as the server sent it (with its legal moves)
let viewAsked = 0;      // counts position requests, so that a late answer is dropped
let viewing = null;     // the node a request is on its way to: steps count from there
let formGame = null;    // the game the form shows
let selected = null;    // the square of the stone the person chose
let flipped = false;    // White's side at the bottom
let connected = false;  // the live stream is open
let lastLive = {};
let preview = null;     // the first move of the engine line the pointer is on, drawn as an arrow
let gameBeforeRestart = null;  // the game shown when the server went, until it is back
let editing = null;     // the position editor's board: {width, height, rows, side}, while open
let exact = null;       // the exact values of the position shown: {node, plies, values}
let exactAsked = null;  // the position they were last asked for

function say(text) { $("message").textContent = text || ""; }
// `count` and the noun, singular for 1: "1 stone", "2 stones".
function plural(count, noun) { return `${count} ${noun}${count === 1 ? "" : "s"}`; }

function openDialog(id) { if (!$(id).open) $(id).showModal(); }
function closeDialog(id) { if ($(id).open) $(id).close(); }
function anyDialogOpen() { return Boolean(document.querySelector("dialog[open]")); }

// Settings this browser remembers between visits.
const SETTINGS_KEY = "konane-settings";
function loadSettings() {
  try { return JSON.parse(localStorage.getItem(SETTINGS_KEY)) || {}; } catch { return {}; }
}
function saveSettings() {
  const settings = { flipped, lines: $("analysis-lines").value, engine: $("show-engine").checked, exact: $("show-exact").checked };
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings)); } catch { /* private mode: not kept */ }
}

// Sends `body` to `path`; a refusal is shown by `tell` (the page's message line by default).
async function post(path, body, tell = say) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) { tell(answer.error); return null; }
    tell("");
    return answer;
  } catch (error) {
    tell("The server does not answer: " + error.message);
    return null;
  }
}

function fileName(file) { return String.fromCharCode(97 + file); }
function squareName(file, rank) { return fileName(file) + (rank + 1); }
function parseSquare(name) { return [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1]; }
// Where a square is drawn: column and row from the top left, as the board is turned.
function cell(file, rank) {
  const { width, height } = boardSize();
  return flipped ? [width - 1 - file, rank] : [file, height - 1 - rank];
}
function centre(name) {
  const [column, row] = cell(...parseSquare(name));
  return [MARGIN + column * CELL + CELL / 2, MARGIN + row * CELL + CELL / 2];
}
function node(tag, attributes, parent) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}
function capitalised(word) { return word.charAt(0).toUpperCase() + word.slice(1); }

// What the board shows: the game's last position, or the one stepped back to.
function following() { return viewNode === null; }
function shown() {
  if (editing) return editedPosition();
  return following() ? state.shown : viewed.shown;
}
function legal() {
  if (!connected || editing) return [];
  return following() ? state.legal : viewed.legal;
}
function whyNot() {
  if (!connected) return "The server does not answer: wait until it is back.";
  return state.why_not;
}
// The node shown: the game's last position when following.
function currentNode() { return following() ? `m${state.moves.length}` : viewNode; }
// Where the next step starts: the node on its way, if a step is still loading.
function stepFrom() { return viewing || currentNode(); }
function branch(id) { return state.variations.find((b) => b.id === id); }
function replies(node) { return state.variations.filter((b) => b.parent === node); }
function nodeExists(node) {
  if (node.startsWith("m")) return Number(node.slice(1)) <= state.moves.length;
  return Boolean(branch(node));
}
// One step back or forward from a node: the game's moves, or a variation's first reply.
function previousNode(node) {
  if (node.startsWith("m")) return `m${Math.max(0, Number(node.slice(1)) - 1)}`;
  return branch(node).parent;
}
function nextNode(node) {
  if (node.startsWith("m")) return `m${Math.min(state.moves.length, Number(node.slice(1)) + 1)}`;
  const first = replies(node)[0];
  return first ? first.id : node;
}

// The position editor's board as the board draws it, and its position string.
function editedPosition() {
  const rows = editing.rows.map((row) => row.join(""));
  const count = (stone) => rows.join("").split(stone).length - 1;
  return {
    board: rows, last: [], removal_phase: false, side_to_move: editing.side === "b" ? "black" : "white",
    stones: [count("b"), count("w")], mobility: [0, 0], fen: editedFen(),
  };
}

// Asks the server whether the edited set-up can arise in a game under the form's rules; its
// reasons join the status line.
let setupAsked = "";
async function checkSetup() {
  const query = new URLSearchParams({ fen: editedFen(), opening: $("opening").value, capture: $("capture").value }).toString();
  if (query === setupAsked) return;
  setupAsked = query;
  try {
    const response = await fetch(`/api/setup?${query}`);
    const answer = await response.json();
    if (!editing || setupAsked !== query) return;
    editing.doubts = response.ok ? answer.reasons : [answer.error];
    $("status").textContent = statusText();
  } catch {
    // The server is gone: the page's banner says so.
  }
}

function editedFen() {
  const ranks = editing.rows.map((row) => row.join("").replace(/\.+/g, (run) => String(run.length)));
  return `${ranks.join("/")} ${editing.side}`;
}

// Opens the editor on `rows` (ranks from the top), or on the position shown.
function startEditing(rows) {
  const position = rows ? null : shown();
  const board = rows || position.board;
  editing = {
    width: board[0].length, height: board.length,
    rows: board.map((rank) => [...rank]),
    side: position && position.side_to_move === "white" ? "w" : "b",
  };
  $("edit-side").value = editing.side;
  $("editor").hidden = false;
  setupAsked = "";
  selected = null;
  draw();
}

function stopEditing() {
  editing = null;
  $("editor").hidden = true;
  draw();
}

// A board of the form's size: empty, or full as at the start.
function formBoard(full) {
  const width = Math.max(2, Math.min(26, Number($("width").value) || 8));
  const height = Math.max(2, Math.min(26, Number($("height").value) || 8));
  return Array.from({ length: height }, (_, row) => Array.from({ length: width }, (_, file) => {
    if (!full) return ".";
    const rank = height - 1 - row;
    return (file + rank) % 2 === 0 ? "w" : "b";
  }).join(""));
}

function boardSize() {
  return editing ? { width: editing.width, height: editing.height } : state.rules;
}

function drawBoard() {
  const board = $("board");
  const { width, height } = boardSize();
  const position = shown();
  board.setAttribute("viewBox", `0 0 ${width * CELL + 2 * MARGIN} ${height * CELL + 2 * MARGIN}`);
  // The keyboard stays on its square when the board is drawn anew.
  const active = document.activeElement;
  const focused = active && board.contains(active) ? active.dataset.square : null;
  board.replaceChildren();
  const moves = legal();
  // Once the game is over its last position offers no rings: moves there are variations.
  const over = following() && Boolean(state.result) && !editing;
  const movable = new Set(over ? [] : moves.map((m) => m.from));
  const targets = selected ? moves.filter((m) => m.from === selected) : [];
  const landings = new Set(targets.map((m) => m.to));
  const last = new Set(position.last);
  const stoneName = { b: "black stone", w: "white stone", ".": "empty" };
  for (let rank = 0; rank < height; rank++) {
    for (let file = 0; file < width; file++) {
      const name = squareName(file, rank);
      const [column, row] = cell(file, rank);
      const x = MARGIN + column * CELL, y = MARGIN + row * CELL;
      const stone = position.board[height - 1 - rank][file];
      const classes = ["square"];
      if (movable.has(name)) classes.push("movable");
      if (name === selected) classes.push("selected");
      // The squares a person can act on are buttons the keyboard reaches (Tab, then Enter).
      const actionable = editing || movable.has(name) || landings.has(name) || name === selected;
      const group = node("g", {
        class: classes.join(" "), "data-square": name, "data-stone": stone,
        role: "button", "aria-label": `${name} ${stoneName[stone]}`, tabindex: actionable ? 0 : -1,
      }, board);
      node("rect", { x, y, width: CELL, height: CELL, class: (file + rank) % 2 ? "sq-light" : "sq-dark" }, group);
      if (last.has(name)) node("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: "last-mark" }, group);
      if (stone !== ".") node("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, class: "stone " + stone }, group);
      group.addEventListener("click", () => clicked(name));
      group.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); clicked(name); focusSquare(name); }
      });
    }
  }
  for (const move of targets) {
    const points = [selected, ...move.path].map((s) => centre(s).join(","));
    if (move.path.length) node("polyline", { points: points.join(" "), class: "path-line" }, board);
    const [cx, cy] = centre(move.to);
    const value = exactOf(move.text);
    const mark = "target-mark" + (value && value.result !== "unknown" ? " " + value.result : "");
    node("circle", { cx, cy, r: CELL * 0.18, class: mark, "data-target": move.to }, board);
  }
  for (let file = 0; file < width; file++) {
    const [column] = cell(file, 0);
    node("text", { x: MARGIN + column * CELL + CELL / 2, y: MARGIN + height * CELL + MARGIN / 2, class: "coord" }, board).textContent = fileName(file);
  }
  // The rank numbers have a column of their own that stays in view when a wide board scrolls.
  const ranks = $("ranks");
  ranks.setAttribute("viewBox", `0 0 ${MARGIN} ${height * CELL + 2 * MARGIN}`);
  ranks.replaceChildren();
  node("rect", { x: 0, y: MARGIN, width: MARGIN, height: height * CELL, class: "backing" }, ranks);
  for (let rank = 0; rank < height; rank++) {
    const [, row] = cell(0, rank);
    node("text", { x: MARGIN / 2, y: MARGIN + row * CELL + CELL / 2, class: "coord" }, ranks).textContent = String(rank + 1);
  }
  drawArrow();
  fitBoard();
  if (focused) focusSquare(focused);
}

// Keeps the keyboard on square `name` after the board is drawn anew.
function focusSquare(name) {
  const square = document.querySelector(`#board g[data-square='${name}']`);
  if (square) square.focus();
}

// The board takes the space its column has, the evaluation bar's place kept beside it so that
// the bar's coming and going moves nothing; on a phone held upright, the width and most of
// the height. The bar is as tall as the board.
const EVAL_BAR_SPACE = 24;
function fitBoard() {
  if (!state) return;
  const { width, height } = boardSize();
  const columns = width + (2 * MARGIN) / CELL, rows = height + (2 * MARGIN) / CELL;
  const area = $("board-area");
  const stacked = getComputedStyle(document.querySelector("main")).display === "flex";
  const across = area.clientWidth - EVAL_BAR_SPACE;
  const down = stacked
    ? window.innerHeight * 0.62
    : area.clientHeight - $("players").offsetHeight - 8;
  let square = Math.max(4, Math.min(across / columns, down / rows));
  if (window.matchMedia("(pointer: coarse)").matches) square = Math.max(square, MIN_TOUCH_SQUARE);
  const board = $("board");
  const boardHeight = Math.floor(square * rows);
  board.style.width = `${Math.floor(square * columns)}px`;
  board.style.height = `${boardHeight}px`;
  // The rank column lies over the board's left margin, and stays at the left when it scrolls.
  const ranks = $("ranks"), rankWidth = Math.floor((square * MARGIN) / CELL);
  ranks.style.width = `${rankWidth}px`;
  ranks.style.height = `${boardHeight}px`;
  ranks.style.marginRight = `-${rankWidth}px`;
  $("board-wrap").style.width = `${Math.floor(Math.min(square * columns, across))}px`;
  $("eval-bar").style.height = `${Math.min(boardHeight, Math.floor(down))}px`;
  $("players").style.maxWidth = `${Math.floor(Math.min(square * columns, across)) + EVAL_BAR_SPACE}px`;
}

// A click on a square: choose a stone (again: let it go), a landing square of the chosen
// stone, or say why not.
function clicked(name) {
  clearChoices();
  if (!state) return;
  if (editing) {
    const [file, rank] = parseSquare(name);
    const row = editing.height - 1 - rank;
    const next = { ".": "b", b: "w", w: "." };
    editing.rows[row][file] = next[editing.rows[row][file]];
    draw();
    return;
  }
  const moves = legal();
  if (moves.length === 0) { say(whyNot() || "No move can be made now."); return; }
  const side = shown().side_to_move;
  if (selected) {
    const ending = moves.filter((m) => m.from === selected && m.to === name && m.path.length);
    // A second click on the chosen stone lets it go, unless a capture loops back to it
    // (turning): then the loops are offered, with a way to let it go.
    if (selected === name && ending.length === 0) { selected = null; say(""); drawBoard(); return; }
    if (ending.length === 1 && selected !== name) { play(ending[0].text); return; }
    if (ending.length) { offerPaths(ending, selected === name); return; }
  }
  const fromHere = moves.filter((m) => m.from === name);
  if (fromHere.length) {
    if (shown().removal_phase) { play(fromHere[0].text); return; }
    selected = name;
    say("");
    drawBoard();
    return;
  }
  const [file, rank] = parseSquare(name);
  const stone = shown().board[state.rules.height - 1 - rank][file];
  const own = side === "black" ? "b" : "w";
  if (shown().removal_phase) {
    const removable = [...new Set(moves.map((m) => m.from))].join(", ");
    say(`${name} cannot be removed now. ${capitalised(side)} may remove: ${removable}.`);
  } else if (selected && stone === ".") {
    say(`The stone on ${selected} cannot land on ${name}.`);
  } else if (stone === ".") {
    say(`${name} is empty: choose one of ${capitalised(side)}'s stones.`);
  } else if (stone !== own) {
    say(`${name} holds a ${stone === "b" ? "Black" : "White"} stone: ${capitalised(side)} is to move.`);
  } else {
    say(`The stone on ${name} has nothing to jump.`);
  }
  selected = null;
  drawBoard();
}

// Several paths end on the chosen square (the turning rule): one button per path; for paths
// that loop back to the chosen stone, also one that lets the stone go.
function offerPaths(moves, release) {
  const box = $("choices");
  box.replaceChildren();
  const label = document.createElement("span");
  label.textContent = "Which path?";
  box.appendChild(label);
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "path-choice";
    button.textContent = [move.from, ...move.path].join("\u2192");
    button.addEventListener("click", () => { clearChoices(); play(move.text); });
    box.appendChild(button);
  }
  if (release) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Let the stone go";
    button.addEventListener("click", () => { clearChoices(); selected = null; drawBoard(); });
    box.appendChild(button);
  }
  box.hidden = false;
}
function clearChoices() { $("choices").hidden = true; $("choices").replaceChildren(); }

// A move on the game's last position is sent with the number of plies the person saw (the
// server refuses it if the game has moved on); on any other position, or once the game is
// over, it is a variation, and the page steps to it.
async function play(text) {
  selected = null;
  const from = currentNode();
  const variation = !following() || Boolean(state.result);
  const body = variation ? { move: text, node: from } : { move: text, ply: state.moves.length };
  const answer = await post("/api/move", body);
  if (!answer) return null;
  show(answer);
  if (variation) {
    const ply = from.startsWith("m") ? Number(from.slice(1)) : -1;
    const next = state.moves[ply] === text ? `m${ply + 1}` : replies(from).find((b) => b.move === text).id;
    await view(next);
  }
  return answer;
}

function formatClock(ms) {
  const total = Math.max(0, Math.floor(ms / 100));
  const tenths = total % 10, seconds = Math.floor(total / 10) % 60, minutes = Math.floor(total / 600);
  return `${minutes}:${String(seconds).padStart(2, "0")}.${tenths}`;
}

function drawClocks() {
  if (!state) return;
  ["black", "white"].forEach((side, i) => {
    const clock = $("clock-" + side);
    const running = connected && state.clock_running === side && !state.result && !state.paused;
    clock.classList.toggle("running", running);
    if (!state.clocks) { clock.textContent = ""; return; }
    const left = state.clocks[i] - (running ? performance.now() - receivedAt : 0);
    clock.textContent = formatClock(left);
  });
}

// The move list as in PGN: one row a move number, Black's ply then White's; under the move
// a variation replaces, the variation in parentheses (its own variations nested, each after
// the move it replaces). New moves of the game are appended: the moves already listed stay
// the same elements, so that a click on one is never lost to a redraw while engines play.
// The list scrolls to the current move only when that changes, and not to a new move of the
// game while a pointer rests on it.
let movesBase = "";     // the game, its start and its variations, as listed
let movesListed = [];   // the game's moves listed
let currentDrawn = "";  // the move marked current, the last time the list scrolled to it
let pointerOnMoves = false;  // a pointer rests on the list
let scrollOwed = false;      // a new move came while it did, and the list did not follow it
// What the list drew from, but the game's moves past `plies` (and their notes), which are
// appended as they come.
function listedBase(plies) {
  const notes = Object.entries(state.notes).filter(([n]) => n.startsWith("v") || Number(n.slice(1)) <= plies);
  return JSON.stringify([state.game, state.start, state.variations.map((b) => [b.id, b.parent, b.move]), notes]);
}
function drawMoves() {
  const list = $("moves");
  const end = `m${movesListed.length}`;
  const extends_ = listedBase(movesListed.length) === movesBase && state.moves.length >= movesListed.length
    && movesListed.every((text, i) => state.moves[i] === text)
    && !state.variations.some((b) => b.parent === end);
  if (!extends_) {
    list.replaceChildren();
    movesListed = [];
  }
  // A person who scrolled up the list to look back is not pulled down by each new move.
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  let appended = false;
  if (state.moves.length > movesListed.length || list.childElementCount === 0) {
    appendMoves(list, movesListed.length);
    movesListed = [...state.moves];
    appended = true;
  }
  movesBase = listedBase(movesListed.length);
  const shownNode = currentNode();
  for (const ply of list.querySelectorAll(".ply")) ply.classList.toggle("current", ply.dataset.node === shownNode);
  const mark = list.querySelector(".current");
  const newMoveFollowed = appended && following();
  if (mark && shownNode !== currentDrawn && !(newMoveFollowed && !atBottom)) {
    // Under a resting pointer the list holds still, so that a move aimed at is the move
    // clicked; the scroll is owed until the pointer leaves.
    if (newMoveFollowed && pointerOnMoves) scrollOwed = true;
    else scrollToMark(list, mark);
  }
  currentDrawn = shownNode;
  const onVariation = !following() && viewNode.startsWith("v");
  $("delete-variation").hidden = !onVariation;
  $("promote-variation").hidden = !onVariation;
  drawAnnotate(shownNode);
}
// Scrolls the list to centre the marked move when it is out of view.
function scrollToMark(list, mark) {
  const top = mark.offsetTop, bottom = top + mark.offsetHeight;
  if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
}

// The note form for the move that led to the position shown; filled when that move changes,
// so that typing is never overwritten by a new state.
let annotating = null;
function drawAnnotate(shownNode) {
  $("annotate").hidden = shownNode === "m0" || Boolean(editing);
  if (shownNode === annotating) return;
  annotating = shownNode;
  const notes = state.notes[shownNode] || {};
  $("mark").value = notes.mark || "";
  $("comment").value = notes.comment || "";
}

// The moves from the start to `node`; `nodeOfPath` finds the node they reach (null when gone),
// to stay on a position whose node a promotion renamed.
function pathTo(node) {
  const moves = [];
  let at = node;
  while (at.startsWith("v")) { const b = branch(at); moves.unshift(b.move); at = b.parent; }
  return state.moves.slice(0, Number(at.slice(1))).concat(moves);
}
function nodeOfPath(moves) {
  let at = "m0";
  for (const [i, move] of moves.entries()) {
    if (at === `m${i}` && state.moves[i] === move) { at = `m${i + 1}`; continue; }
    const next = state.variations.find((b) => b.parent === at && b.move === move);
    if (!next) return null;
    at = next.id;
  }
  return at;
}

// Lists the game's moves from ply `from` on (continuing the last row), with the variations
// that hang from them.
function appendMoves(list, from) {
  const whiteFirst = state.start.endsWith(" w");
  const counted = (ply) => ply - 1 + (whiteFirst ? 1 : 0);  // ply: plies after the move
  const moveSpan = (text, node, ply, numbered) => {
    const span = document.createElement("span");
    span.className = "ply";
    span.dataset.node = node;
    span.tabIndex = 0;
    span.setAttribute("role", "button");
    const n = counted(ply);
    const number = Math.floor(n / 2) + 1;
    span.textContent = n % 2 === 0 ? `${number}. ${text}` : numbered ? `${number}... ${text}` : text;
    return span;
  };
  // The line starting with variation move `id`: each move, then the other replies to the
  // move before it (the variations it replaces), then on.
  const line = (id, into) => {
    let at = branch(id);
    into.appendChild(noted(moveSpan(at.move, at.id, at.ply, true)));
    let numbered = false;  // after a variation, the line's next move carries its number again
    for (;;) {
      const [first, ...others] = replies(at.id);
      if (!first) return;
      into.appendChild(noted(moveSpan(first.move, first.id, first.ply, numbered)));
      for (const other of others) nested(other.id, into);
      numbered = others.length > 0;
      at = first;
    }
  };
  const nested = (id, into) => {
    const group = document.createElement("span");
    group.className = "variation";
    line(id, group);
    into.appendChild(group);
  };
  const variationRow = (parent) => {
    const alternatives = replies(parent);
    if (!alternatives.length) return;
    const row = document.createElement("li");
    row.className = "variations";
    for (const alternative of alternatives) nested(alternative.id, row);
    list.appendChild(row);
  };
  // A row with Black's ply alone goes on with White's.
  const last = list.lastElementChild;
  let row = last && last.classList.contains("row") ? last : null;
  state.moves.slice(from).forEach((text, k) => {
    const i = from + k;
    const black = counted(i + 1) % 2 === 0;
    if (black || row === null) {
      row = document.createElement("li");
      row.className = "row";
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${Math.floor(counted(i + 1) / 2) + 1}.`;
      row.appendChild(number);
      list.appendChild(row);
      if (!black) row.appendChild(ellipsis());
    }
    const ply = moveSpan(text, `m${i + 1}`, i + 1, false);
    ply.textContent = text;
    row.appendChild(noted(ply));
    if (replies(`m${i}`).length) { variationRow(`m${i}`); row = null; }
  });
  variationRow(`m${state.moves.length}`);
}

// A move with its notes, if it has any: its marks right after it, then the engine's verdict
// and the person's comment.
function noted(span) {
  const notes = state.notes[span.dataset.node];
  if (!notes) return span;
  const group = document.createElement("span");
  group.className = "noted";
  group.appendChild(span);
  for (const kind of ["marks", "eval", "comment"]) {
    if (!notes[kind]) continue;
    const part = document.createElement("span");
    part.className = kind;
    part.textContent = notes[kind];
    group.appendChild(part);
  }
  return group;
}

function ellipsis() {
  const gap = document.createElement("span");
  gap.textContent = "\u2026";
  return gap;
}

function statusText() {
  if (editing) {
    const intro = "Position editor: set the stones and the side to move, then start from it.";
    const doubts = editing.doubts || [];
    return doubts.length ? `${intro} This set-up cannot arise in a game: ${doubts.join("; ")}.` : intro;
  }
  if (!connected) return "The server does not answer.";
  if (!following()) {
    const plies = state.moves.length;
    if (viewNode === "m0") return `The start position, before the game's ${plies} plies: End returns to the game.`;
    if (viewNode.startsWith("v")) return `A variation, ${viewed.ply} plies from the start: your moves here leave the game as it is. End returns to the game.`;
    const ply = Number(viewNode.slice(1));
    return `After ply ${ply} of ${plies} (${state.moves[ply - 1]}): a move here starts a variation. End returns to the game.`;
  }
  // The result itself is shown once, below.
  if (state.result) return "Game over.";
  if (state.held) return "Paused: Resume goes on; moves wait until then.";
  if (state.paused) return "Paused: no page was open. The game goes on now.";
  const side = capitalised(state.to_move);
  const player = state.players[state.to_move === "black" ? 0 : 1];
  if (state.thinking) return `${player.name} (${side}) is thinking\u2026`;
  if (state.shown.removal_phase) return `${side} to remove a stone: click it.`;
  return `${side} to move: click a stone, then where it lands.`;
}

// The page's title says whose turn it is, so that another tab shows it.
function title() {
  if (!state || !connected) return "Konane";
  if (state.result) return `${state.result.text.split(":")[0]} \u00b7 Konane`;
  return `${capitalised(state.to_move)} to move \u00b7 Konane`;
}

// An earlier refusal ("a1 cannot be removed now") goes once the position shown changes.
let positionSaid = "";
function forgetOldMessages() {
  const key = `${state.game}:${state.moves.length}:${currentNode()}:${Boolean(editing)}`;
  if (key !== positionSaid) { positionSaid = key; say(""); }
}

function draw() {
  if (selected && !legal().some((m) => m.from === selected)) selected = null;
  forgetOldMessages();
  const position = shown();
  // The side to move of the position shown (a finished game's last position has none).
  const over = following() && Boolean(state.result);
  ["black", "white"].forEach((side, i) => {
    const tag = $("player-" + side);
    tag.querySelector(".name").textContent = state.players[i].name;
    tag.classList.toggle("to-move", !editing && !over && position.side_to_move === side);
    const moves = position.removal_phase || editing ? "" : `, ${plural(position.mobility[i], "move")}`;
    $("count-" + side).textContent = `${plural(position.stones[i], "stone")}${moves}`;
  });
  document.title = title();
  drawBoard();
  drawClocks();
  drawMoves();
  if (editing) checkSetup();
  $("status").textContent = statusText();
  $("result").textContent = state.result ? state.result.text : "";
  $("notice").textContent = state.notice || "";
  const analysis = state.analysis;
  const analyse = $("analyse");
  analyse.textContent = analysis ? "Stop analysis" : "Analyse";
  analyse.classList.toggle("on", Boolean(analysis));
  if (analysis) $("analysis-lines").value = String(analysis.lines);
  $("analysis-note").textContent = analysis && analysis.waits ? `Waits: ${analysis.waits}.` : "";
  const person = state.players.some((p) => !p.engine);
  $("stop-game").disabled = Boolean(state.result);
  $("resign").disabled = Boolean(state.result) || !person;
  // The server says why a take-back cannot work now, or null when it can.
  $("takeback").disabled = state.why_no_takeback !== null;
  $("takeback").title = state.why_no_takeback || "take back your last move (and the reply to it)";
  $("again").hidden = !state.result || Boolean(state.series);
  $("swap").hidden = !state.result || Boolean(state.series);
  $("pause").textContent = state.held ? "Resume" : "Pause";
  $("pause").disabled = Boolean(state.result);
  $("move-now").disabled = !state.thinking;
  // After the end, the buttons of a running game give their place to the rematch.
  const ended = Boolean(state.result) && !state.series;
  for (const id of ["pause", "move-now", "stop-game"]) $(id).hidden = ended;
  const series = state.series;
  $("series").hidden = !series;
  if (series) {
    const next = series.next_in_ms === null ? "" : ` \u2014 next game in ${Math.ceil(series.next_in_ms / 1000)} s`;
    $("series").textContent = `Match: ${series.names[0]} ${series.score[0]} \u2013 ${series.score[1]} ${series.names[1]}` +
      ` (${series.played} of ${series.games} games played)` +
      (series.elo ? `, ${series.names[0]}: ${series.elo}, LOS ${series.los} %` : "") + next;
  }
  drawMatchGames();
  $("fen-out").value = position.fen;
  drawEngineMarks();
  drawExact();
}

// The table of a match's finished games, asked for again when a game ends.
let matchRowsFor = null;
async function drawMatchGames() {
  const series = state.series;
  $("match-games").hidden = !series || series.played === 0;
  const key = series ? `${state.game}:${series.played}` : null;
  if (!series || key === matchRowsFor) return;
  matchRowsFor = key;
  try {
    const answer = await (await fetch("/api/match")).json();
    const rows = answer.games.map((game) => {
      const row = document.createElement("tr");
      for (const value of [game.round, game.black, game.white, game.winner, game.termination, game.plies]) {
        const cell = document.createElement("td");
        cell.textContent = String(value);
        row.appendChild(cell);
      }
      return row;
    });
    $("match-rows").replaceChildren(...rows);
  } catch (error) {
    matchRowsFor = null;
  }
}

function show(next) {
  // An HTTP answer can arrive after a newer state came over the live stream.
  if (state && next.version < state.version) return;
  const newGame = !state || next.game !== state.game;
  // After a restart the server has a game of its own: say so rather than switch silently.
  const restarted = gameBeforeRestart !== null && next.game !== gameBeforeRestart.game;
  gameBeforeRestart = null;
  state = next;
  receivedAt = performance.now();
  if (newGame || (viewNode && !nodeExists(viewNode))) { viewNode = null; viewed = null; }
  fillEngines();
  if (formGame !== state.game) { fillForm(state.setup); formGame = state.game; }
  draw();
  if (restarted) say("The server restarted: this is the game it has now; the one shown before is gone.");
}

// The form shows the game on screen: after a reload, a new game from any page, a position string.
function fillForm(setup) {
  $("width").value = setup.width;
  $("height").value = setup.height;
  $("opening").value = setup.opening;
  $("capture").value = setup.capture;
  $("black").value = setup.black;
  $("white").value = setup.white;
  drawOptions("black", setup.options[0]);
  drawOptions("white", setup.options[1]);
  const time = setup.time;
  $("time-kind").value = time.kind;
  showTimeFields();
  if (time.kind === "movetime") $("time-a").value = time.ms;
  if (time.kind === "clock") { $("time-a").value = time.base_ms / 1000; $("time-b").value = time.inc_ms / 1000; }
  if (time.kind === "depth") $("time-a").value = time.depth;
  $("stall").value = setup.stall_s;
  if (!state.series) $("games").value = setup.games || 1;
  $("fen").value = setup.fen || "";
}

// The engine options a person may set for each side, when its engine announced them.
// Ponder (a check) makes the engine think on the person's or the other engine's time.
const OFFERED_OPTIONS = ["Skill", "Threads", "Hash", "Ponder"];

function engineInfo(name) { return state.engines.find((e) => e.name === name); }

// Shows the offered options of the engine chosen for `side`, set to `values` or its defaults.
function drawOptions(side, values = {}) {
  const box = $("options-" + side);
  box.replaceChildren();
  const engine = state && engineInfo($(side).value);
  if (!engine) return;
  for (const option of engine.options) {
    if (!OFFERED_OPTIONS.includes(option.name) || !["spin", "check"].includes(option.kind)) continue;
    const label = document.createElement("label");
    label.textContent = option.name + " ";
    const input = document.createElement("input");
    input.dataset.option = option.name;
    input.dataset.default = option.default;
    if (option.kind === "check") {
      input.type = "checkbox";
      input.checked = (values[option.name] ?? option.default) === "true";
      input.title = `${option.name}: think on the opponent's time`;
    } else {
      Object.assign(input, { type: "number", min: option.min, max: option.max, step: 1 });
      input.value = values[option.name] ?? option.default;
      input.title = `${option.name}: ${option.min} to ${option.max} (default ${option.default})`;
    }
    label.appendChild(input);
    box.appendChild(label);
  }
}

// The options of `side` that differ from the engine's defaults.
function chosenOptions(side) {
  const chosen = {};
  for (const input of $("options-" + side).querySelectorAll("input")) {
    const value = input.type === "checkbox" ? String(input.checked) : input.value;
    if (value !== input.dataset.default) chosen[input.dataset.option] = value;
  }
  return chosen;
}

// The lines the chosen analysis engine can show: up to its MultiPV's maximum (at most 5); an
// engine without MultiPV shows one.
const MAX_LINES = 5;
function fillLines() {
  const select = $("analysis-lines");
  const engine = engineInfo($("analysis-engine").value);
  const multipv = engine && engine.options.find((o) => o.name.toLowerCase() === "multipv" && o.kind === "spin");
  const most = multipv ? Math.max(1, Math.min(MAX_LINES, multipv.max)) : 1;
  const wanted = Array.from({ length: most }, (_, i) => String(i + 1));
  if ([...select.options].map((o) => o.value).join("|") !== wanted.join("|")) {
    const chosen = select.value || loadSettings().lines || "1";
    select.replaceChildren(...wanted.map((n) => new Option(plural(Number(n), "line"), n)));
    select.value = wanted.includes(chosen) ? chosen : wanted[wanted.length - 1];
  }
  select.disabled = most === 1;
  select.title = multipv ? `up to ${most} lines` : "this engine announces no MultiPV: one line";
}

function fillEngines() {
  const names = state.engines.map((e) => e.name);
  for (const id of ["black", "white", "analysis-engine"]) {
    const select = $(id);
    const wanted = (id === "analysis-engine" ? [] : ["human"]).concat(names);
    if ([...select.options].map((o) => o.value).join("|") === wanted.join("|")) continue;
    const chosen = select.value;
    select.replaceChildren(...wanted.map((name) => new Option(name === "human" ? "Human" : name, name)));
    if (wanted.includes(chosen)) select.value = chosen;
    if (id !== "analysis-engine") drawOptions(id);
  }
  fillLines();
}

// A score as the engine gives it (for the side to move) turned to Black's side.
function forBlack(score, side) {
  if (!score || side === "black") return score;
  if (score.startsWith("mate ")) return "mate " + -Number(score.slice(5));
  const cp = -Number(score);
  return (cp >= 0 ? "+" : "") + cp;
}

function percent(chance) { return `${Math.round(chance * 100)} %`; }
function speed(nps) {
  if (nps >= 1e6) return `${(nps / 1e6).toFixed(1)} Mn/s`;
  if (nps >= 1e3) return `${Math.round(nps / 1e3)} kn/s`;
  return `${nps} n/s`;
}

function showLive(live) {
  lastLive = live;
  const box = $("live");
  box.classList.toggle("ended", Boolean(live.ended));
  $("live-lines").replaceChildren();
  if (!live.who) {
    $("live-who").textContent = ""; $("live-figures").textContent = ""; $("live-pv").textContent = "";
    drawEngineMarks();
    return;
  }
  $("live-who").textContent = live.who;
  if (live.ended) {
    const mark = document.createElement("span");
    mark.className = "ended";
    mark.textContent = ` \u2014 search ended (${live.ended})`;
    $("live-who").appendChild(mark);
  }
  const parts = [];
  // The selective depth is shown only where it says more than the depth.
  if (live.depth !== null && live.depth !== undefined) parts.push(`depth ${live.depth}${live.seldepth > live.depth ? "/" + live.seldepth : ""}`);
  if (live.score) {
    const chance = live.black_chance === null || live.black_chance === undefined ? "" : ` (Black ${percent(live.black_chance)})`;
    parts.push(`score ${forBlack(live.score, live.side)}${chance}`);
  }
  if (live.nodes !== null && live.nodes !== undefined) parts.push(`nodes ${live.nodes.toLocaleString("en")}`);
  if (live.nps !== null && live.nps !== undefined && live.nodes > 1) parts.push(speed(live.nps));
  if (live.text) parts.push(live.text);
  $("live-figures").textContent = parts.join(" \u00b7 ");
  const lines = live.lines || [];
  $("live-pv").textContent = live.pv && lines.length < 2 ? "pv " + live.pv : "";
  if (lines.length > 1) {
    for (const line of lines) {
      const item = document.createElement("li");
      item.className = "live-line";
      item.tabIndex = 0;
      const depth = line.depth === null || line.depth === undefined ? "" : `d${line.depth} `;
      item.textContent = `${depth}${forBlack(line.score, live.side) || "?"}  ${line.pv}`;
      item.title = "hover or focus: its first move on the board; click: play it";
      // Hovering a line shows its first move; a click plays it (on the game, or as a variation).
      const first = line.pv.split(" ")[0];
      item.addEventListener("mouseenter", () => { preview = first; drawArrow(); });
      item.addEventListener("focus", () => { preview = first; drawArrow(); });
      item.addEventListener("mouseleave", () => { preview = null; drawArrow(); });
      item.addEventListener("blur", () => { preview = null; drawArrow(); });
      item.addEventListener("click", () => { preview = null; if (first) play(first); });
      $("live-lines").appendChild(item);
    }
  }
  drawEngineMarks();
}

// The engine's figures that are about the position shown, if any.
function liveHere() {
  if (!state || editing || !lastLive.who || lastLive.node !== currentNode() || !$("show-engine").checked) return null;
  return lastLive;
}

// The exact value of `move` in the position shown, once known.
function exactOf(move) {
  if (!exact || exact.node !== currentNode() || exact.plies !== state.moves.length) return null;
  return exact.values.moves.find((m) => m.move === move) || null;
}

// Asks for the exact values of the position shown when the switch is on and they are not
// known yet, and lists them.
async function drawExact() {
  const box = $("exact");
  box.hidden = !$("show-exact").checked || Boolean(editing);
  if (box.hidden || !state) return;
  const node = currentNode();
  const key = `${state.game}:${state.moves.length}:${node}`;
  if (exactAsked !== key) {
    exactAsked = key;
    box.textContent = "Proving\u2026";
    try {
      const response = await fetch(`/api/exact?node=${node}`);
      const values = await response.json();
      if (exactAsked !== key) return;
      if (!response.ok) { box.textContent = values.error; return; }
      exact = { node, plies: state.moves.length, values };
    } catch (error) {
      box.textContent = "The server does not answer: " + error.message;
      return;
    }
    drawBoard();
  }
  if (!exact || `${state.game}:${exact.plies}:${exact.node}` !== key) return;
  const values = exact.values;
  box.replaceChildren();
  const head = document.createElement("div");
  const side = capitalised(shown().side_to_move);
  head.textContent = values.why_not
    ? `Exact values: not tried (${values.why_not}).`
    : values.wins === true ? `Exact: ${side} to move wins.`
    : values.wins === false ? `Exact: ${side} to move loses.`
    : "Exact: not every move proven in time.";
  box.appendChild(head);
  for (const value of values.moves) {
    const item = document.createElement("span");
    item.className = "value " + value.result;
    // In moves of the side to move, as an engine's "mate N" counts: a win in at most N, a loss in N.
    const moves = value.plies === null ? 0 : Math.ceil(value.plies / 2);
    const plies = value.plies === null ? "" : value.result === "win" ? ` (mate in \u2264${moves})` : ` (mated in ${moves})`;
    item.textContent = `${value.move} ${value.result}${plies}`;
    box.appendChild(item);
  }
}

// The evaluation bar, the graph over the game and the best move's arrow.
function drawEngineMarks() {
  if (!state) return;
  drawArrow();
  const shownEngine = $("show-engine").checked;
  const here = liveHere();
  const node = currentNode();
  let chance = here && here.black_chance !== null && here.black_chance !== undefined ? here.black_chance : null;
  if (chance === null && node.startsWith("m")) {
    const known = state.chances.find(([ply]) => `m${ply}` === node);
    if (known) chance = known[1];
  }
  const bar = $("eval-bar");
  bar.hidden = !shownEngine || chance === null;
  bar.classList.toggle("flipped", flipped);
  if (chance !== null) {
    $("eval-fill").style.height = `${chance * 100}%`;
    $("eval-text").textContent = percent(chance);
    bar.title = `Black's chance to win: ${percent(chance)}`;
  }
  drawGraph(shownEngine);
}

function drawGraph(shownEngine) {
  const graph = $("graph");
  const plies = state.moves.length;
  // An SVG element has no `hidden` property: the attribute is what hides it.
  const hide = !shownEngine || state.chances.length < 2 || plies < 1;
  graph.toggleAttribute("hidden", hide);
  if (hide) return;
  const width = 300, height = 80;
  graph.setAttribute("viewBox", `0 0 ${width} ${height}`);
  graph.setAttribute("preserveAspectRatio", "none");
  graph.replaceChildren();
  const x = (ply) => (ply / plies) * width;
  const y = (chance) => (1 - chance) * height;
  node("line", { x1: 0, x2: width, y1: height / 2, y2: height / 2, class: "half" }, graph);
  const points = state.chances.map(([ply, chance]) => `${x(ply).toFixed(1)},${y(chance).toFixed(1)}`);
  const first = state.chances[0][0], last = state.chances[state.chances.length - 1][0];
  node("polygon", { points: `${x(first)},${height} ${points.join(" ")} ${x(last)},${height}`, class: "area" }, graph);
  node("polyline", { points: points.join(" "), class: "curve" }, graph);
  const current = currentNode();
  if (current.startsWith("m")) {
    const at = x(Number(current.slice(1)));
    node("line", { x1: at, x2: at, y1: 0, y2: height, class: "here" }, graph);
  }
}

// The first move of the engine's best line on the position shown, drawn on the board.
function drawArrow() {
  const board = $("board");
  const old = board.querySelector(".arrow-layer");
  if (old) old.remove();
  const here = liveHere();
  const first = preview || (here && here.pv ? here.pv.split(" ")[0] : null);
  const squares = first ? first.match(/[a-z][0-9]+/g) : null;
  if (!squares) return;
  const layer = node("g", { class: "arrow-layer" }, board);
  const kind = preview ? "arrow preview" : "arrow";
  if (squares.length === 1) {
    const [cx, cy] = centre(squares[0]);
    node("circle", { cx, cy, r: CELL * 0.45, class: "arrow-ring" }, layer);
    return;
  }
  const defs = node("defs", {}, layer);
  const marker = node("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse" }, defs);
  node("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head" }, marker);
  const points = squares.map((s) => centre(s).join(",")).join(" ");
  node("polyline", { points, class: kind, "marker-end": "url(#arrowhead)", "data-move": first }, layer);
}

// Steps this page to `node` (the game's last position follows the game again); the
// analysis, if on, follows the position shown.
async function view(node) {
  if (!state) return;
  selected = null;
  clearChoices();
  const asked = ++viewAsked;
  viewing = node;
  if (node === `m${state.moves.length}`) {
    viewNode = null;
    viewed = null;
  } else {
    try {
      const response = await fetch(`/api/position?node=${node}`);
      const answer = await response.json();
      if (asked !== viewAsked) return;
      viewing = null;
      if (!response.ok) { say(answer.error); return; }
      viewNode = node;
      viewed = answer;
    } catch (error) {
      if (asked === viewAsked) viewing = null;
      say("The server does not answer: " + error.message);
      return;
    }
  }
  viewing = null;
  draw();
  if (state.analysis && state.analysis.node !== viewNode) {
    await analyse(state.analysis.engine, state.analysis.lines);
  }
}

// The time fields the chosen kind of time needs; `reset` puts its usual values in.
function showTimeFields(reset) {
  const kind = $("time-kind").value;
  $("time-b").hidden = kind !== "clock";
  $("stall-label").hidden = kind !== "depth";
  if (reset) {
    $("time-a").value = { movetime: 1000, clock: 60, depth: 8 }[kind];
    $("time-b").value = 1;
  }
}

// The time setting the form asks for, or a sentence saying what is wrong with it.
function timeSetting() {
  const kind = $("time-kind").value;
  const a = Number($("time-a").value), b = Number($("time-b").value);
  if (kind === "movetime") {
    if (!(a >= 1)) return "The time a move must be at least 1 ms.";
    return { kind, ms: Math.round(a) };
  }
  if (kind === "clock") {
    if (!(a > 0)) return "The clock must start with more than 0 seconds.";
    if (!(b >= 0)) return "The increment must be 0 seconds or more.";
    return { kind, base_ms: Math.round(a * 1000), inc_ms: Math.round(b * 1000) };
  }
  if (!(a >= 1 && a <= 120)) return "The depth must be 1 to 120.";
  return { kind, depth: Math.round(a) };
}

// Starts a game (or imports one) and returns the server's answer; a refusal is shown by `tell`.
async function startGame(setup, path = "/api/new", tell = say) {
  if (state && !state.result && state.moves.length > 0
      && !window.confirm("Replace the game in progress? It ends without a result.")) return null;
  selected = null;
  clearChoices();
  const answer = await post(path, setup, tell);
  if (answer) { formGame = null; show(answer); }
  return answer;
}
function setupSays(text) { $("setup-message").textContent = text || ""; if (text) openDialog("setup"); }

async function newGame(event) {
  event.preventDefault();
  const time = timeSetting();
  if (typeof time === "string") { setupSays(time); return; }
  const stall = Number($("stall").value);
  if (time.kind === "depth" && !(stall >= 1)) { setupSays("The stall limit must be at least 1 second."); return; }
  const answer = await startGame({
    width: Number($("width").value),
    height: Number($("height").value),
    opening: $("opening").value,
    capture: $("capture").value,
    black: $("black").value,
    white: $("white").value,
    time,
    fen: $("fen").value.trim() || null,
    stall_s: time.kind === "depth" ? Math.round(stall) : null,
    options: [chosenOptions("black"), chosenOptions("white")],
    games: Math.max(1, Math.round(Number($("games").value) || 1)),
  }, "/api/new", setupSays);
  if (answer) closeDialog("setup");
}

// After a game: the same again, or with the colours swapped.
function rematch(swap) {
  const setup = { ...state.setup };
  if (swap) {
    [setup.black, setup.white] = [setup.white, setup.black];
    setup.options = [setup.options[1], setup.options[0]];
  }
  startGame(setup);
}

// Asks `engine` (null: none) to analyse the position shown with `lines` lines.
async function analyse(engine, lines) {
  const body = engine === null ? { engine } : { engine, node: viewNode, lines };
  const answer = await post("/api/analysis", body);
  if (answer) show(answer);
}

function toggleAnalysis() {
  const engine = state && state.analysis ? null : $("analysis-engine").value;
  return analyse(engine, Number($("analysis-lines").value));
}

async function typedMove(event) {
  event.preventDefault();
  const text = $("typed-move").value.trim();
  if (!text) return;
  if (await play(text)) $("typed-move").value = "";
}

async function request(path) {
  const answer = await post(path, {});
  if (answer) show(answer);
}

// The live stream; when the server goes, the page says so and reconnects when it is back.
function connect() {
  const events = new EventSource("/api/events");
  events.onopen = () => {
    connected = true;
    $("connection").hidden = true;
    // A restarted server counts its states and games from 1 again.
    if (state) gameBeforeRestart = { game: state.game };
    state = null;
    formGame = null;
  };
  events.addEventListener("state", (event) => show(JSON.parse(event.data)));
  events.addEventListener("live", (event) => showLive(JSON.parse(event.data)));
  events.onerror = () => {
    connected = false;
    $("connection").textContent = "The server does not answer: it may have stopped. Reconnecting when it is back\u2026";
    $("connection").hidden = false;
    if (state) draw();
    if (events.readyState === EventSource.CLOSED) {
      events.close();
      setTimeout(connect, 2000);
    }
  };
}

$("new-game").addEventListener("submit", newGame);
$("time-kind").addEventListener("change", () => showTimeFields(true));
$("black").addEventListener("change", () => drawOptions("black"));
$("white").addEventListener("change", () => drawOptions("white"));
$("analyse").addEventListener("click", toggleAnalysis);
$("analysis-lines").addEventListener("change", () => {
  saveSettings();
  if (state && state.analysis) analyse(state.analysis.engine, Number($("analysis-lines").value));
});
$("stop-game").addEventListener("click", () => {
  if (window.confirm("Stop this game? It ends without a result.")) request("/api/stop");
});
$("resign").addEventListener("click", () => { if (window.confirm("Resign this game?")) request("/api/resign"); });
$("takeback").addEventListener("click", () => request("/api/takeback"));
$("pause").addEventListener("click", () => request(state && state.held ? "/api/resume" : "/api/pause"));
$("move-now").addEventListener("click", () => request("/api/move-now"));
$("again").addEventListener("click", () => rematch(false));
$("swap").addEventListener("click", () => rematch(true));
$("typed").addEventListener("submit", typedMove);
$("first").addEventListener("click", () => view("m0"));
$("back").addEventListener("click", () => view(previousNode(stepFrom())));
$("forward").addEventListener("click", () => view(nextNode(stepFrom())));
$("last").addEventListener("click", () => view(`m${state.moves.length}`));
$("delete-variation").addEventListener("click", async () => {
  const parent = previousNode(viewNode);
  const answer = await post("/api/variation/delete", { node: viewNode });
  if (answer) { show(answer); view(parent); }
});
$("promote-variation").addEventListener("click", async () => {
  const path = pathTo(viewNode);
  const answer = await post("/api/variation/promote", { node: viewNode });
  if (answer) { show(answer); view(nodeOfPath(path) || `m${state.moves.length}`); }
});
$("annotate").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = await post("/api/annotate", { node: currentNode(), mark: $("mark").value, comment: $("comment").value });
  if (answer) show(answer);
});
$("import").addEventListener("click", async () => {
  const tell = (text) => { $("import-message").textContent = text || ""; };
  if (!$("import-text").value.trim()) { tell("Paste a PGN or a list of moves first."); return; }
  const answer = await startGame({
    text: $("import-text").value,
    width: Number($("width").value),
    height: Number($("height").value),
    opening: $("opening").value,
    capture: $("capture").value,
  }, "/api/import", tell);
  if (answer) { $("import-text").value = ""; closeDialog("import-box"); }
});
$("new").addEventListener("click", () => { $("setup-message").textContent = ""; openDialog("setup"); });
$("setup-cancel").addEventListener("click", () => closeDialog("setup"));
$("open-import").addEventListener("click", () => { $("import-message").textContent = ""; openDialog("import-box"); });
$("import-cancel").addEventListener("click", () => closeDialog("import-box"));
// The engine log: the server's last lines to and from the engines, followed while it is open.
let logAfter = 0;
let logTimer = null;
const LOG_SHOWN = 2000;
async function readLog() {
  try {
    const answer = await (await fetch(`/api/log?after=${logAfter}`)).json();
    const pre = $("log-lines");
    if (answer.restarted) pre.textContent = "";
    const atBottom = pre.scrollHeight - pre.scrollTop - pre.clientHeight < 24;
    const text = answer.lines.map((l) => `${(l.millis / 1000).toFixed(3).padStart(9)} ${l.engine} ${l.direction} ${l.text}\n`).join("");
    if (answer.lines.length) logAfter = answer.lines[answer.lines.length - 1].number;
    pre.append(text);
    const lines = pre.textContent.split("\n");
    if (lines.length > LOG_SHOWN + 1) pre.textContent = lines.slice(-LOG_SHOWN - 1).join("\n");
    if (atBottom) pre.scrollTop = pre.scrollHeight;
  } catch (error) {
    // The server is gone: the page's banner says so; the log resumes when it is back.
  }
}
$("open-log").addEventListener("click", () => {
  openDialog("log-box");
  readLog();
  if (logTimer === null) logTimer = setInterval(readLog, 1000);
});
$("log-close").addEventListener("click", () => closeDialog("log-box"));
$("log-box").addEventListener("close", () => { clearInterval(logTimer); logTimer = null; });
$("open-help").addEventListener("click", () => openDialog("help"));
$("help-close").addEventListener("click", () => closeDialog("help"));
// Copies `text` to the clipboard and says so on `button` for a moment.
async function copy(text, button) {
  const label = button.textContent;
  try { await navigator.clipboard.writeText(text); button.textContent = "Copied"; } catch { button.textContent = "Not allowed"; }
  setTimeout(() => { button.textContent = label; }, 1200);
}
$("copy-pgn").addEventListener("click", async () => {
  const response = await fetch("/api/pgn");
  copy(await response.text(), $("copy-pgn"));
});
$("copy-fen").addEventListener("click", () => copy($("fen-out").value, $("copy-fen")));
$("fen-out").addEventListener("focus", () => $("fen-out").select());
// The move list answers the press itself, so that a redraw between press and release loses nothing.
$("moves").addEventListener("pointerdown", (event) => {
  const ply = event.target.closest(".ply");
  if (ply) { event.preventDefault(); view(ply.dataset.node); }
});
$("moves").addEventListener("pointerenter", () => { pointerOnMoves = true; });
$("moves").addEventListener("pointerleave", () => {
  pointerOnMoves = false;
  const mark = $("moves").querySelector(".current");
  if (scrollOwed && following() && mark) scrollToMark($("moves"), mark);
  scrollOwed = false;
});
$("moves").addEventListener("keydown", (event) => {
  const ply = event.target.closest(".ply");
  if (ply && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); view(ply.dataset.node); }
});
$("edit").addEventListener("click", () => startEditing());
$("edit-empty").addEventListener("click", () => startEditing(formBoard(false)));
$("edit-full").addEventListener("click", () => startEditing(formBoard(true)));
$("edit-cancel").addEventListener("click", stopEditing);
$("edit-side").addEventListener("change", () => { editing.side = $("edit-side").value; draw(); });
// The editor judges its set-up under the form's rules: a change of them judges it again.
for (const rule of ["opening", "capture"]) $(rule).addEventListener("change", () => { if (editing) draw(); });
$("edit-use").addEventListener("click", () => {
  $("fen").value = editedFen();
  $("width").value = editing.width;
  $("height").value = editing.height;
  stopEditing();
  $("new-game").requestSubmit();
});
function flip() { flipped = !flipped; saveSettings(); if (state) { drawBoard(); drawEngineMarks(); } }
$("flip").addEventListener("click", flip);
$("show-engine").addEventListener("change", () => {
  $("live").hidden = !$("show-engine").checked;
  saveSettings();
  if (state) drawEngineMarks();
});
$("show-exact").addEventListener("change", () => { saveSettings(); if (state) draw(); });
$("analysis-engine").addEventListener("change", fillLines);
$("graph").addEventListener("click", (event) => {
  const box = $("graph").getBoundingClientRect();
  view(`m${Math.round(((event.clientX - box.left) / box.width) * state.moves.length)}`);
});
// Shortcuts act on the board only: never inside a text field or an open dialog, never with
// Ctrl, Alt or Cmd (Ctrl+F still finds in the page).
document.addEventListener("keydown", (event) => {
  if (!state || event.ctrlKey || event.metaKey || event.altKey || anyDialogOpen()) return;
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
  // On the board the arrows move between squares as they are drawn (Enter or Space acts).
  const square = target.closest && target.closest("#board g[data-square]");
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (square && event.key in steps) {
    event.preventDefault();
    const [column, row] = cell(...parseSquare(square.dataset.square));
    const [dx, dy] = steps[event.key];
    const next = [...document.querySelectorAll("#board g[data-square]")]
      .find((g) => { const [c, r] = cell(...parseSquare(g.dataset.square)); return c === column + dx && r === row + dy; });
    if (next) next.focus();
    return;
  }
  const at = stepFrom();
  const keys = { ArrowLeft: previousNode(at), ArrowRight: nextNode(at), Home: "m0", End: `m${state.moves.length}` };
  if (event.key in keys) { event.preventDefault(); view(keys[event.key]); }
  if (event.key === "f") flip();
  if (event.key === "n") { event.preventDefault(); $("new").click(); }
});
{
  const settings = loadSettings();
  flipped = Boolean(settings.flipped);
  if (settings.engine === false) { $("show-engine").checked = false; $("live").hidden = true; }
  if (settings.exact === true) $("show-exact").checked = true;
}
window.addEventListener("resize", fitBoard);
setInterval(drawClocks, 100);
connect();
