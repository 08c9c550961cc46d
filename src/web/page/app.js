// The page of `orca web`: draws the game the server keeps and sends the
// person's moves and choices; the server's event stream says what changed.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let game = null; // the last state the server sent
let info = null; // the last search info of the current state
let events = null;
let setup = null; // the squares being set up by hand, or null
let lastSearch = null; // the info of Orca's last move, shown after it
let clockAt = 0; // when the shown state came (the running clock counts from it)

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    throw new Error(data && data.error ? data.error : response.statusText);
  }
  return data;
}

function showError(e) {
  $("error").textContent = e ? e.message || String(e) : "";
}

// Sends an action on the game; whether the server took it.
async function act(action, body) {
  if (!game) return false;
  try {
    showError(null);
    show(await api("POST", `/api/games/${game.id}/${action}`, body || {}));
    return true;
  } catch (e) {
    showError(e);
    return false;
  }
}

// Goes to the position after `ply` moves of the line, if there is one.
function goTo(ply) {
  if (game && ply >= 0 && ply <= game.moves.length && ply !== game.cursor) act("goto", { ply });
}

function strength() {
  const choice = $("movetime").value;
  const seconds = choice === "other" ? Number($("movetime-seconds").value) : Number(choice) / 1000;
  return { level: Number($("level").value), movetime_ms: Math.round(seconds * 1000) };
}

// The game clock chosen: none, one of the list, or minutes + seconds.
function clockSettings() {
  const choice = $("clock").value;
  let base, increment;
  if (choice === "other") {
    base = Math.round(Number($("clock-minutes").value) * 60000);
    increment = Math.round(Number($("clock-increment").value) * 1000);
  } else {
    [base, increment] = choice.split("/").map(Number);
  }
  if (!base) return { clock_ms: 0 };
  return { clock_ms: base, increment_ms: increment, person_clock: $("person-clock").checked };
}

// Shows the choices that apply: "other..." opens its fields; the time a
// move is Orca's only without a clock.
function drawTimeChoices() {
  $("movetime-other").hidden = $("movetime").value !== "other";
  $("clock-other").hidden = $("clock").value !== "other";
  const clocked = $("clock").value !== "0/0";
  $("person-clock-label").hidden = !clocked;
  $("movetime").disabled = clocked;
}

async function newGame() {
  try {
    showError(null);
    if (game) api("DELETE", `/api/games/${game.id}`).catch(() => {});
    if (events) events.close();
    info = null;
    const state = await api("POST", "/api/games", {
      variant: $("variant").value,
      black: $("black").value,
      white: $("white").value,
      hints: $("hints").checked,
      hint_depth: Number($("hint-depth").value),
      ...strength(),
      ...clockSettings(),
    });
    show(state);
    listen(state.id);
    // The address names the game: a reload shows it again.
    history.replaceState(null, "", `#game=${state.id}`);
  } catch (e) {
    showError(e);
    if (!game) noGame(e);
  }
}

// No game could be opened (the server holds its most games): the page says
// so and offers nothing but trying again.
function noGame(e) {
  document.body.classList.add("no-game");
  for (const b of document.querySelectorAll("#play button, #side button, #play input")) b.disabled = true;
  $("status").textContent = `No game: ${e.message || e}. Close another page of Orca, then press New game.`;
}

// The game named in the address (after a reload), or a new one.
async function resume() {
  const id = Number((location.hash.match(/game=(\d+)/) || [])[1]);
  if (id) {
    try {
      const state = await api("GET", `/api/games/${id}`);
      settingsFrom(state);
      show(state);
      listen(id);
      return;
    } catch (e) {
      // Closed meanwhile: a new one.
    }
  }
  newGame();
}

// The controls show the game's settings.
function settingsFrom(state) {
  $("variant").value = state.variant;
  $("black").value = state.black;
  $("white").value = state.white;
  $("level").value = String(state.level);
  $("level-out").value = String(state.level);
  const time = String(state.movetime_ms);
  if ([...$("movetime").options].some((o) => o.value === time)) {
    $("movetime").value = time;
  } else {
    $("movetime").value = "other";
    $("movetime-seconds").value = String(state.movetime_ms / 1000);
  }
  $("hint-depth").value = String(state.hint_depth);
  const clock = state.clock;
  const choice = clock ? `${clock.base_ms}/${clock.increment_ms}` : "0/0";
  if ([...$("clock").options].some((o) => o.value === choice)) {
    $("clock").value = choice;
  } else {
    $("clock").value = "other";
    $("clock-minutes").value = String(clock.base_ms / 60000);
    $("clock-increment").value = String(clock.increment_ms / 1000);
  }
  $("person-clock").checked = Boolean(clock && clock.person);
  drawTimeChoices();
}

function listen(id) {
  events = new EventSource(`/api/games/${id}/events`);
  events.addEventListener("state", (e) => show(JSON.parse(e.data)));
  events.addEventListener("info", (e) => {
    info = JSON.parse(e.data);
    drawInfo();
    if (info.for === "hint") drawBoard();
  });
}

function show(state) {
  // An answer may arrive after the event of a later change.
  if (game && game.id === state.id && state.version < game.version) return;
  const moved = game && (state.cursor !== game.cursor || state.moves.length !== game.moves.length);
  if (moved || state.over || !state.hints || (!state.thinking && !(info && info.for === "hint"))) {
    // Orca's search for the move it just played stays shown until the next.
    if (info && info.for === "move") lastSearch = info;
    info = null;
  }
  if (moved && state.thinking === "move") lastSearch = null;
  if (document.body.classList.contains("no-game")) {
    // A game at last: every control works again.
    for (const b of document.querySelectorAll("#play button, #side button, #play input")) b.disabled = false;
    document.body.classList.remove("no-game");
  }
  game = state;
  clockAt = performance.now();
  drawClocks();
  drawBoard();
  drawGraph();
  drawStatus();
  drawMoves();
  drawInfo();
  $("download").href = `/api/games/${game.id}/ggf`;
  $("download").hidden = game.variant === "tictactoe";
  $("analyze").disabled = game.analysing || game.moves.length === 0;
  $("undo").disabled = game.cursor === 0;
  $("redo").disabled = game.cursor === game.moves.length;
  $("first").disabled = $("back").disabled = game.cursor === 0;
  $("forward").disabled = $("last").disabled = game.cursor === game.moves.length;
  $("stop").disabled = !game.thinking;
  $("hints").checked = game.hints;
}

function sideName(color) {
  if (game.variant === "tictactoe") return color === "black" ? "X" : "O";
  return color === "black" ? "Black" : "White";
}

function personToMove() {
  return !game.over && game[game.to_move] === "person";
}

function size() {
  return game.variant === "tictactoe" ? 3 : 8;
}

function squareName(i) {
  const n = size();
  return "abcdefgh"[i % n] + String(Math.floor(i / n) + 1);
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

let drawn = ""; // what the board shows, to redraw it only when that changes

function drawBoard() {
  const n = size();
  const squares = setup || game.position.split(/\s+/)[0];
  // A margin for the coordinates: columns a-h above, rows 1-8 to the left.
  const m = 0.42;
  const svg = el("svg", { viewBox: `${-m} ${-m} ${n + m} ${n + m}`, role: "presentation" });
  // Flipped, the board is turned half round: h8 top left.
  const flip = $("flip").checked;
  const at = (k) => (flip ? n - 1 - k : k);
  for (let i = 0; i < n; i++) {
    el("text", { x: at(i) + .5, y: -m / 2, class: "coord" }, svg).textContent = "abcdefgh"[i];
    el("text", { x: -m / 2, y: at(i) + .5, class: "coord" }, svg).textContent = String(i + 1);
  }
  const legal = new Set(personToMove() && !setup ? game.legal : []);
  const hints = new Map();
  if (info && info.for === "hint") for (const line of info.lines) hints.set(line.move, line);
  const best = info && info.lines.length ? info.lines[0].move : null;
  // The book's moves, marked with the hints.
  const book = new Map(game.hints ? game.book.map((m) => [m.move, m.value]) : []);
  const key = JSON.stringify([squares, [...legal], game.last, [...hints.values()], [...book], flip]);
  if (key === drawn) return;
  drawn = key;
  for (let i = 0; i < n * n; i++) {
    const x = at(i % n), y = at(Math.floor(i / n)), name = squareName(i);
    const square = el("rect", { x, y, width: 1, height: 1, class: "square", "data-square": name }, svg);
    square.setAttribute("aria-label", name);
    if (setup) {
      square.classList.add("legal");
      square.addEventListener("click", () => cycle(i));
    } else if (legal.has(name)) {
      square.classList.add("legal");
      square.addEventListener("click", () => act("move", { move: name }));
    }
    const c = squares[i];
    if (game.variant === "tictactoe") {
      if (c !== "-") el("text", { x: x + .5, y: y + .5, class: "mark" }, svg).textContent = c;
    } else if (c === "X" || c === "O") {
      el("circle", { cx: x + .5, cy: y + .5, r: .42, class: c === "X" ? "disc-black" : "disc-white", "data-disc": c }, svg);
    }
    if (hints.has(name)) {
      const line = hints.get(name);
      const kind = "hint" + (line.exact ? " exact" : "") + (name === best ? " best" : "");
      const text = el("text", { x: x + .5, y: y + .5, class: kind }, svg);
      text.textContent = formatScore(line.score, line.exact);
      if (book.has(name)) {
        el("text", { x: x + .5, y: y + .8, class: "book" }, svg).textContent = `book ${formatScore(book.get(name), true)}`;
      }
    } else if (book.has(name) && legal.has(name)) {
      // The book's value shows at once, before any search.
      const text = el("text", { x: x + .5, y: y + .5, class: "hint book-value" }, svg);
      text.textContent = formatScore(book.get(name), true);
    } else if (legal.has(name)) {
      el("circle", { cx: x + .5, cy: y + .5, r: .12, class: "legal-dot" }, svg);
    }
    if (game.last === name) el("circle", { cx: x + .5, cy: y + .5, r: .07, class: "last" }, svg);
  }
  $("board").replaceChildren(svg);
}

function formatScore(score, exact) {
  const text = (score > 0 ? "+" : "") + (exact ? String(Math.round(score)) : score.toFixed(1));
  return text;
}

// Setting up a position: a click paints the square with the chosen colour
// (or, with "cycle", turns it empty, black, white, empty...).
function cycle(i) {
  const paint = document.querySelector("input[name=paint]:checked").value;
  const next = { "-": "X", X: "O", O: "-" };
  const c = paint === "cycle" ? next[setup[i]] : paint;
  setup = setup.slice(0, i) + c + setup.slice(i + 1);
  drawBoard();
  drawSetupCounts();
}

function drawSetupCounts() {
  const count = (c) => [...setup].filter((s) => s === c).length;
  $("discs").textContent = `Black ${count("X")} - White ${count("O")} (setting up)`;
}

function toggleSetup(on) {
  setup = on ? game.position.split(/\s+/)[0] : null;
  $("setup").setAttribute("aria-pressed", String(on));
  $("setup-side").hidden = !on;
  $("setup-tools").hidden = !on;
  if (on) drawSetupCounts();
  else drawStatus();
  $("setup-done").hidden = !on;
  if (on) $("setup-to-move").value = game.to_move === "black" ? "X" : "O";
  drawBoard();
}

// The game's values over its moves, black's view (up: black ahead), as
// NBoard draws them: the analysis' values where it has run, else Orca's own
// estimates of its moves (dots); a scale, the zero line, the current move,
// mistakes marked in red, the value under the pointer; a click goes there.
function playValues() {
  const values = game.values.slice();
  game.moves.forEach((m, i) => {
    if (values[i] === null && m.score !== null && m.by === "orca") {
      values[i] = m.color === "black" ? m.score : -m.score;
    }
  });
  return values;
}

function drawGraph() {
  const analysed = game.values;
  const values = playValues();
  const n = Math.max(values.length - 1, 1);
  const known = values.filter((v) => v !== null);
  const top = Math.ceil(Math.max(8, ...known.map(Math.abs)) / 4) * 4;
  const svg = el("svg", { viewBox: `0 0 ${n} ${2 * top}`, preserveAspectRatio: "none" });
  for (const v of [top / 2, -top / 2]) {
    el("line", { x1: 0, x2: n, y1: top - v, y2: top - v, class: "grid" }, svg);
  }
  el("line", { x1: 0, x2: n, y1: top, y2: top, class: "axis" }, svg);
  const points = [];
  values.forEach((v, i) => {
    if (v === null) return;
    points.push(`${i},${top - v}`);
    if (analysed[i] === null) el("circle", { cx: i, cy: top - v, r: .35, class: "estimate" }, svg);
  });
  if (points.length) el("polyline", { points: points.join(" "), class: "curve", "data-points": points.length }, svg);
  game.moves.forEach((m, i) => {
    if (m.mark) el("line", { x1: i + 1, x2: i + 1, y1: 0, y2: 2 * top, class: "mistake" }, svg);
  });
  el("line", { x1: game.cursor, x2: game.cursor, y1: 0, y2: 2 * top, class: "cursor" }, svg);
  const ply = (e) => {
    const box = svg.getBoundingClientRect();
    return Math.max(0, Math.min(n, Math.round(((e.clientX - box.left) / box.width) * n)));
  };
  svg.addEventListener("click", (e) => goTo(ply(e)));
  svg.addEventListener("mousemove", (e) => {
    const i = ply(e);
    const v = values[i];
    $("graph-value").textContent = v === null || v === undefined ? `move ${i}` :
      `move ${i}: ${formatScore(v, false)} for black`;
  });
  $("graph-plot").replaceChildren(svg);
  $("graph-top").textContent = `+${top}`;
  $("graph-bottom").textContent = `-${top}`;
  $("graph").hidden = known.length === 0;
}

// m:ss, and tenths under 20 s.
function formatClock(ms) {
  const seconds = Math.max(0, ms) / 1000;
  const m = Math.floor(seconds / 60);
  const s = seconds - 60 * m;
  const text = seconds < 20 ? s.toFixed(1).padStart(4, "0") : String(Math.floor(s)).padStart(2, "0");
  return `${m}:${text}`;
}

// The clocks, the running one counted down since the state came.
function drawClocks() {
  const clock = game && game.clock;
  $("clocks").hidden = !clock;
  if (!clock) return;
  for (const color of ["black", "white"]) {
    const left = clock[`${color}_ms`];
    const span = $(`clock-${color}`);
    const running = clock.running === color;
    const now = running ? left - (performance.now() - clockAt) : left;
    span.textContent = `${sideName(color)} ${left === null ? "untimed" : formatClock(now)}`;
    span.classList.toggle("running", running);
    span.classList.toggle("out", left === 0);
  }
}

function drawStatus() {
  let status;
  if (game.over) {
    status = game.result;
  } else {
    const who = game[game.to_move] === "orca" ? "Orca" : "you";
    status = `${sideName(game.to_move)} to move (${who})`;
    if (game.thinking === "move") status += ": Orca is thinking...";
    if (game.analysing) status += " (analysing the game...)";
    // A pass just before (the person's own, played for them, or Orca's).
    const recent = game.moves.slice(Math.max(0, game.cursor - 2), game.cursor);
    const pass = recent.find((m) => m.move === "pass");
    if (pass) status = `${sideName(pass.color)} had no move and passed. ` + status;
    if (game.cursor < game.moves.length) status += " (going back over the game)";
  }
  $("status").textContent = status;
  $("discs").textContent = game.variant === "tictactoe" ? "" :
    `Black ${game.black_discs} - White ${game.white_discs}`;
}

function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  const start = document.createElement("li");
  start.className = "start";
  start.textContent = "start";
  start.dataset.ply = "0";
  if (game.cursor === 0) start.classList.add("current");
  start.addEventListener("click", () => goTo(0));
  list.appendChild(start);
  game.moves.forEach((m, i) => {
    const item = document.createElement("li");
    let text = `${sideName(m.color)} ${m.move}`;
    if (m.book) text += " (book)";
    else if (m.score !== null) text += ` ${formatScore(m.score, m.exact)}`;
    item.textContent = text;
    if (m.loss !== null) {
      const loss = document.createElement("span");
      loss.className = "loss";
      loss.textContent = ` ${m.mark} -${m.loss.toFixed(1)}`;
      if (m.mark || m.loss >= 0.05) item.appendChild(loss);
    }
    item.dataset.ply = String(i + 1);
    if (i + 1 === game.cursor) item.classList.add("current");
    if (i + 1 > game.cursor) item.classList.add("future");
    item.addEventListener("click", () => goTo(i + 1));
    list.appendChild(item);
  });
  // The current move in view, the list scrolled (not the page).
  const current = list.querySelector("li.current");
  if (current) {
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
}

function drawInfo() {
  const shown = info || lastSearch;
  if (!shown) {
    $("info").textContent = game && game.thinking ? "thinking..." : "";
    return;
  }
  $("info").textContent = (info ? "" : "Orca's last move: ") + describe(shown);
}

function describe(info) {
  if (info.book) return `book move ${info.pv[0] || ""}`;
  const depth = info.exact ? `${info.depth} (exact)` : `${info.depth}@${info.selectivity}%`;
  return `depth ${depth}  score ${formatScore(info.score, info.exact)}\n` +
    `nodes ${info.nodes.toLocaleString()}  ${Math.round(info.nps / 1000).toLocaleString()} kN/s  ${(info.time_ms / 1000).toFixed(1)} s\n` +
    `pv ${info.pv.join(" ")}`;
}

$("copy").addEventListener("click", async () => {
  const text = game ? game.transcript : "";
  try {
    await navigator.clipboard.writeText(text);
    $("copy").textContent = "Copied";
  } catch (e) {
    // No clipboard for this page: the moves are put in the game box, selected.
    $("game-text").value = text;
    $("game-text").select();
    $("copy").textContent = "In the game box";
  }
  setTimeout(() => { $("copy").textContent = "Copy"; }, 2000);
});
$("movetime").addEventListener("change", () => {
  drawTimeChoices();
  if ($("movetime").value !== "other") act("settings", strength());
});
$("movetime-seconds").addEventListener("change", () => act("settings", strength()));
$("clock").addEventListener("change", () => {
  drawTimeChoices();
  if ($("clock").value !== "other") act("settings", clockSettings());
});
$("clock-set").addEventListener("click", () => act("settings", clockSettings()));
$("person-clock").addEventListener("change", () => act("settings", clockSettings()));
setInterval(drawClocks, 100);
$("load").addEventListener("click", () => act("load", { text: $("game-text").value }));
$("analyze").addEventListener("click", () => act("analyze", { depth: Number($("analysis-depth").value) }));
$("hint-depth").addEventListener("change", () => act("settings", { hint_depth: Number($("hint-depth").value) }));
$("setup").addEventListener("click", () => toggleSetup(!setup));
$("setup-done").addEventListener("click", async () => {
  const squares = setup;
  const side = $("setup-to-move").value;
  toggleSetup(false);
  if (!(await act("load", { text: `${squares} ${side}` }))) {
    // Refused: the set-up stays as it was, to be corrected.
    toggleSetup(true);
    setup = squares;
    $("setup-to-move").value = side;
    drawBoard();
  }
});
$("setup-clear").addEventListener("click", () => {
  setup = "-".repeat(size() * size());
  drawBoard();
  drawSetupCounts();
});
$("setup-start").addEventListener("click", () => {
  const n = size();
  setup = "-".repeat(n * n);
  if (n === 8) setup = setup.slice(0, 27) + "OX------XO" + setup.slice(37);
  drawBoard();
  drawSetupCounts();
});
$("flip").addEventListener("change", () => drawBoard());
$("open-file").addEventListener("change", async () => {
  const file = $("open-file").files[0];
  if (!file) return;
  const text = await file.text();
  $("game-text").value = text;
  await act("load", { text });
  $("open-file").value = "";
});
$("first").addEventListener("click", () => goTo(0));
$("back").addEventListener("click", () => goTo(game.cursor - 1));
$("forward").addEventListener("click", () => goTo(game.cursor + 1));
$("last").addEventListener("click", () => goTo(game.moves.length));
$("new-game").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
$("undo").addEventListener("click", () => act("undo"));
$("redo").addEventListener("click", () => act("redo"));
$("stop").addEventListener("click", () => act("stop"));
$("hints").addEventListener("change", () => act("settings", { hints: $("hints").checked }));
$("level").addEventListener("input", () => { $("level-out").value = $("level").value; });
$("level").addEventListener("change", () => act("settings", strength()));
$("black").addEventListener("change", () => act("settings", { black: $("black").value }));
$("white").addEventListener("change", () => act("settings", { white: $("white").value }));
$("type-move").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("move-text").value.trim();
  // A refused move stays in the box, to be corrected.
  if (text) act("move", { move: text }).then((played) => { if (played) $("move-text").value = ""; });
});
document.addEventListener("keydown", (e) => {
  const t = e.target;
  const typing = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement ||
    t instanceof HTMLSelectElement || (t instanceof HTMLElement && t.isContentEditable);
  if (typing || e.ctrlKey || e.metaKey || e.altKey || !game) return;
  const keys = {
    u: () => act("undo"),
    r: () => act("redo"),
    s: () => act("stop"),
    m: () => $("move-text").focus(),
    ArrowLeft: () => goTo(game.cursor - 1),
    ArrowRight: () => goTo(game.cursor + 1),
    Home: () => goTo(0),
    End: () => goTo(game.moves.length),
  };
  if (keys[e.key]) {
    // The key does its job only: no "m" typed into the box it focuses.
    e.preventDefault();
    keys[e.key]();
  }
});
window.addEventListener("pagehide", () => { if (events) events.close(); });
resume();
