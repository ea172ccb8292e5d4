// The Konane page: draws what the server sends and sends the person's intents. The server
// referees; the legal moves it sends are what the board offers to click.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const CELL = 40;
const MARGIN = 30;

let state = null;       // the game, as the server last sent it
let receivedAt = 0;     // when (performance.now()) it came, for the running clock
let selected = null;    // the square of the stone the person chose
let pending = null;     // moves that end on one square by different paths (turning)

function say(text) { $("message").textContent = text || ""; }

async function post(path, body) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) { say(answer.error); return null; }
    say("");
    return answer;
  } catch (error) {
    say("The server does not answer: " + error);
    return null;
  }
}

function fileName(file) { return String.fromCharCode(97 + file); }
function squareName(file, rank) { return fileName(file) + (rank + 1); }
function parseSquare(name) { return [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1]; }
function centre(name, height) {
  const [file, rank] = parseSquare(name);
  return [MARGIN + file * CELL + CELL / 2, MARGIN + (height - 1 - rank) * CELL + CELL / 2];
}
function node(tag, attributes, parent) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}
function capitalised(word) { return word.charAt(0).toUpperCase() + word.slice(1); }

function drawBoard() {
  const board = $("board");
  const { width, height } = state.rules;
  const rows = state.shown.board;
  board.setAttribute("viewBox", `0 0 ${width * CELL + 2 * MARGIN} ${height * CELL + 2 * MARGIN}`);
  board.replaceChildren();
  const movable = new Set(state.legal.map((m) => m.from));
  const targets = selected ? state.legal.filter((m) => m.from === selected) : [];
  const last = new Set(state.shown.last);
  for (let row = 0; row < height; row++) {
    const rank = height - 1 - row;
    for (let file = 0; file < width; file++) {
      const name = squareName(file, rank);
      const x = MARGIN + file * CELL, y = MARGIN + row * CELL;
      const stone = rows[row][file];
      const classes = ["square"];
      if (movable.has(name)) classes.push("movable");
      if (name === selected) classes.push("selected");
      const group = node("g", { class: classes.join(" "), "data-square": name, "data-stone": stone }, board);
      node("rect", { x, y, width: CELL, height: CELL, class: (file + rank) % 2 ? "sq-light" : "sq-dark" }, group);
      if (last.has(name)) node("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: "last-mark" }, group);
      if (stone !== ".") node("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, class: "stone " + stone }, group);
      group.addEventListener("click", () => clicked(name));
    }
  }
  for (const move of targets) {
    const points = [selected, ...move.path].map((s) => centre(s, height).join(","));
    if (move.path.length) node("polyline", { points: points.join(" "), class: "path-line" }, board);
    const [cx, cy] = centre(move.to, height);
    node("circle", { cx, cy, r: CELL * 0.18, class: "target-mark", "data-target": move.to }, board);
  }
  for (let file = 0; file < width; file++) {
    node("text", { x: MARGIN + file * CELL + CELL / 2, y: MARGIN + height * CELL + MARGIN / 2, class: "coord" }, board).textContent = fileName(file);
  }
  for (let row = 0; row < height; row++) {
    node("text", { x: MARGIN / 2, y: MARGIN + row * CELL + CELL / 2, class: "coord" }, board).textContent = String(height - row);
  }
}

// A click on a square: choose a stone, or a landing square of the chosen stone, or say why not.
function clicked(name) {
  clearChoices();
  if (!state) return;
  if (state.legal.length === 0) { say(state.why_not || "No move can be made now."); return; }
  const side = state.to_move;
  if (selected) {
    const ending = state.legal.filter((m) => m.from === selected && m.to === name && m.path.length);
    if (ending.length === 1) { play(ending[0].text); return; }
    if (ending.length > 1) { offerPaths(ending); return; }
  }
  const fromHere = state.legal.filter((m) => m.from === name);
  if (fromHere.length) {
    if (state.shown.removal_phase) { play(fromHere[0].text); return; }
    selected = name;
    say("");
    drawBoard();
    return;
  }
  const [file, rank] = parseSquare(name);
  const stone = state.shown.board[state.rules.height - 1 - rank][file];
  const own = side === "black" ? "b" : "w";
  if (state.shown.removal_phase) {
    const removable = [...new Set(state.legal.map((m) => m.from))].join(", ");
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

// Several paths end on the chosen square (the turning rule): one button per path.
function offerPaths(moves) {
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
  box.hidden = false;
  pending = moves;
}
function clearChoices() { pending = null; $("choices").hidden = true; $("choices").replaceChildren(); }

async function play(text) {
  selected = null;
  const answer = await post("/api/move", { move: text });
  if (answer) show(answer);
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
    const running = state.thinking === side && !state.result;
    clock.classList.toggle("running", running);
    if (!state.clocks || !state.players[i].engine) { clock.textContent = ""; return; }
    const left = state.clocks[i] - (running ? performance.now() - receivedAt : 0);
    clock.textContent = formatClock(left);
  });
}

// The move list as in PGN: one line a move number, Black's ply then White's.
function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  const whiteFirst = state.start.endsWith(" w");
  let line = null;
  state.moves.forEach((text, i) => {
    const counted = i + (whiteFirst ? 1 : 0);
    const black = counted % 2 === 0;
    if (black || line === null) {
      line = document.createElement("li");
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${Math.floor(counted / 2) + 1}.`;
      line.appendChild(number);
      list.appendChild(line);
      if (!black) line.appendChild(ellipsis());
    }
    const ply = document.createElement("span");
    ply.className = "ply" + (i + 1 === state.view ? " current" : "");
    ply.textContent = text;
    ply.addEventListener("click", () => view(i + 1));
    line.appendChild(ply);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function ellipsis() {
  const gap = document.createElement("span");
  gap.className = "gap";
  gap.textContent = "\u2026";
  return gap;
}

function statusText() {
  if (state.result) return state.result.text;
  if (state.paused) return "Paused.";
  const side = capitalised(state.to_move);
  const player = state.players[state.to_move === "black" ? 0 : 1];
  if (state.view < state.moves.length) return `Move ${state.view} of ${state.moves.length} shown.`;
  if (state.thinking) return `${player.name} (${side}) is thinking\u2026`;
  if (state.shown.removal_phase) return `${side} to remove a stone: click it.`;
  return `${side} to move: click a stone, then where it lands.`;
}

function show(next) {
  // An HTTP answer can arrive after a newer state came over the live stream.
  if (state && next.version < state.version) return;
  if (!state) fillForm(next);
  state = next;
  receivedAt = performance.now();
  if (selected && !state.legal.some((m) => m.from === selected)) selected = null;
  ["black", "white"].forEach((side, i) => {
    const tag = $("player-" + side);
    tag.querySelector(".name").textContent = state.players[i].name;
    tag.classList.toggle("to-move", !state.result && state.to_move === side);
  });
  drawBoard();
  drawClocks();
  drawMoves();
  $("status").textContent = statusText();
  $("result").textContent = state.result ? state.result.text : "";
  if (state.notice) say(state.notice);
  fillEngines();
  const analyse = $("analyse");
  analyse.textContent = state.analysis ? "Stop analysis" : "Analyse";
  analyse.classList.toggle("on", Boolean(state.analysis));
  $("stop-game").disabled = Boolean(state.result);
  $("fen-out").value = state.shown.fen;
  if (!state.thinking && !state.analysis) $("live").classList.add("idle");
}

// On opening the page, the form shows the game in progress.
function fillForm(game) {
  $("width").value = game.rules.width;
  $("height").value = game.rules.height;
  $("opening").value = game.rules.opening;
  $("capture").value = game.rules.capture;
}

function fillEngines() {
  const names = state.engines;
  for (const id of ["black", "white", "analysis-engine"]) {
    const select = $(id);
    const wanted = (id === "analysis-engine" ? [] : ["human"]).concat(names);
    if ([...select.options].map((o) => o.value).join("|") === wanted.join("|")) continue;
    const chosen = select.value;
    select.replaceChildren(...wanted.map((name) => new Option(name === "human" ? "Human" : name, name)));
    if (wanted.includes(chosen)) select.value = chosen;
    else if (id === "white" && names.length) select.value = names[0];
  }
}

function showLive(live) {
  $("live").classList.remove("idle");
  if (!live.who) { $("live-who").textContent = ""; $("live-figures").textContent = ""; $("live-pv").textContent = ""; return; }
  $("live-who").textContent = live.who;
  const parts = [];
  if (live.depth !== null && live.depth !== undefined) parts.push(`depth ${live.depth}${live.seldepth ? "/" + live.seldepth : ""}`);
  if (live.score) parts.push(`score ${live.score}`);
  if (live.nodes !== null && live.nodes !== undefined) parts.push(`nodes ${live.nodes.toLocaleString("en")}`);
  if (live.nps !== null && live.nps !== undefined) parts.push(`${(live.nps / 1000).toFixed(0)} kn/s`);
  if (live.text) parts.push(live.text);
  $("live-figures").textContent = parts.join(" \u00b7 ");
  $("live-pv").textContent = live.pv ? "pv " + live.pv : "";
}

async function view(ply) {
  if (!state) return;
  ply = Math.max(0, Math.min(state.moves.length, ply));
  if (ply === state.view) return;
  selected = null;
  const answer = await post("/api/view", { ply });
  if (answer) show(answer);
}

function timeSetting() {
  const kind = $("time-kind").value;
  const a = Number($("time-a").value), b = Number($("time-b").value);
  if (kind === "movetime") return { kind, ms: Math.round(a) };
  if (kind === "clock") return { kind, base_ms: Math.round(a * 1000), inc_ms: Math.round(b * 1000) };
  return { kind, depth: Math.round(a) };
}

function timeKindChanged() {
  const kind = $("time-kind").value;
  $("time-b").hidden = kind !== "clock";
  $("time-a").value = { movetime: 1000, clock: 60, depth: 8 }[kind];
}

async function newGame(event) {
  event.preventDefault();
  selected = null;
  clearChoices();
  const answer = await post("/api/new", {
    width: Number($("width").value),
    height: Number($("height").value),
    opening: $("opening").value,
    capture: $("capture").value,
    black: $("black").value,
    white: $("white").value,
    time: timeSetting(),
    fen: $("fen").value.trim() || null,
  });
  if (answer) { show(answer); showLive({}); }
}

async function toggleAnalysis() {
  const engine = state && state.analysis ? null : $("analysis-engine").value;
  const answer = await post("/api/analysis", { engine });
  if (answer) show(answer);
}

async function typedMove(event) {
  event.preventDefault();
  const text = $("typed-move").value.trim();
  if (!text) return;
  const answer = await post("/api/move", { move: text });
  if (answer) { $("typed-move").value = ""; show(answer); }
}

function connect() {
  const events = new EventSource("/api/events");
  // A restarted server counts its states from 1 again.
  events.onopen = () => { state = null; };
  events.addEventListener("state", (event) => show(JSON.parse(event.data)));
  events.addEventListener("live", (event) => showLive(JSON.parse(event.data)));
  events.onerror = () => { if (events.readyState === EventSource.CLOSED) say("The server has stopped."); };
}

$("new-game").addEventListener("submit", newGame);
$("time-kind").addEventListener("change", timeKindChanged);
$("analyse").addEventListener("click", toggleAnalysis);
$("stop-game").addEventListener("click", async () => { const answer = await post("/api/stop", {}); if (answer) show(answer); });
$("typed").addEventListener("submit", typedMove);
$("first").addEventListener("click", () => view(0));
$("back").addEventListener("click", () => view(state.view - 1));
$("forward").addEventListener("click", () => view(state.view + 1));
$("last").addEventListener("click", () => view(state.moves.length));
$("show-fen").addEventListener("click", () => { const out = $("fen-out"); out.hidden = !out.hidden; out.select(); });
document.addEventListener("keydown", (event) => {
  if (!state || event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
  const keys = { ArrowLeft: state.view - 1, ArrowRight: state.view + 1, Home: 0, End: state.moves.length };
  if (event.key in keys) { event.preventDefault(); view(keys[event.key]); }
});
setInterval(drawClocks, 100);
connect();
