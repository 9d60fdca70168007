// The gamedb explorer: plain JavaScript over the service's JSON API, drawing with SVG.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
let tables = [];
let view = null; // the current game view: {answer(a)} and what it needs

function el(tag, attrs = {}, text) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4))
                                   : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(url) {
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

// A number among a table's parameters, as its header writes them ("heaps=3,max-heap=7").
function param(t, name) {
  const pair = (t.parameters || "").split(",").find((p) => p.startsWith(`${name}=`));
  return pair ? Number(pair.slice(name.length + 1)) : NaN;
}
function setStatus(html) { $("status").innerHTML = html; }
function showError(e) {
  setStatus(`<span class="error" id="error">${escapeHtml(e.message || String(e))}</span>`);
}
function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

// ---- the table picker -------------------------------------------------------------------

async function start() {
  try {
    tables = await api("/api/tables");
  } catch (e) { showError(e); return; }
  const select = $("table-select");
  select.innerHTML = "";
  for (const t of tables) {
    const o = el("option", { value: t.file }, t.error ? `${t.file} (refused)` : `${t.file} — ${t.description}`);
    if (t.error) { o.disabled = true; o.title = t.error; }
    select.append(o);
  }
  // Boards with pattern tables are answered by the solver (the 15-puzzle among them).
  const boards = new Set(tables.filter((t) => t.game === "pdb").map((t) => `${param(t, "rows")}x${param(t, "cols")}`));
  for (const b of boards) {
    select.append(el("option", { value: `solver:${b}` }, `${b.replace("x", "×")} sliding puzzle — optimal solver on the pattern tables`));
  }
  if (!select.options.length) {
    select.append(el("option", { value: "" }, "no tables served"));
    $("game").innerHTML = "";
    $("game").append(el("p", { class: "hint", id: "no-tables" },
      "This folder holds no table the service can read: build one with gamedb build, then reload."));
    return;
  }
  select.addEventListener("change", () => {
    // The table chosen is the page's address, so it can be reloaded or linked to.
    history.replaceState(null, "", `?table=${encodeURIComponent(select.value)}`);
    open(select.value);
  });
  // Play mode and back: the button says which the page will go to.
  $("play-toggle").addEventListener("click", () => {
    const t = tables.find((x) => x.file === select.value);
    if (!t || t.error) return;
    if (document.getElementById("play-board")) {
      history.replaceState(null, "", `?table=${encodeURIComponent(t.file)}`);
      open(t.file);
    } else {
      startPlay(t);
    }
  });
  const query = new URLSearchParams(location.search);
  const wanted = query.get("table");
  const usable = (name) => Array.from(select.options).some((o) => o.value === name && !o.disabled);
  let name = wanted && usable(wanted) ? wanted : landing();
  select.value = name;
  const t = tables.find((x) => x.file === name);
  if (name === wanted && query.has("play") && t) startPlay(t, query.get("play").split(";"), query.get("me"));
  else open(name);
  if (wanted && wanted !== name) {
    $("table-about").textContent = `no table ${wanted} is served here; showing ${name}. ` + $("table-about").textContent;
  }
}

// The table the page opens on without a ?table= in its address: a game drawn on the page
// (Chomp first, then Nim, Wythoff, a sliding puzzle, an octal or a subtraction game), one
// whose value chart is quick to count (the largest such), else the first table that can be
// read.
function landing() {
  const rank = { chomp: 0, nim: 1, wythoff: 2, slide: 3, octal: 4, subtraction: 5 };
  const quick = 1 << 27;
  const usable = tables.filter((t) => !t.error);
  if (!usable.length) return $("table-select").options[0].value;
  const key = (t) => [t.game in rank ? rank[t.game] : 9, t.entries <= quick ? 0 : 1,
                      t.entries <= quick ? -t.entries : t.entries];
  const less = (a, b) => { const x = key(a), y = key(b); for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i]; return false; };
  return usable.reduce((best, t) => (less(t, best) ? t : best)).file;
}

// Play mode (play.js) for a table; the header's button then leads back to exploring.
function startPlay(t, line, me) {
  document.onkeydown = null;
  $("chart-panel").hidden = true;
  $("play-toggle").textContent = "explore";
  $("table-about").textContent = `${t.entries.toLocaleString()} positions, ${t.values} values · playing against perfect play`;
  playMode(t, line, me);
}

async function open(name) {
  document.onkeydown = null;
  $("chart-panel").hidden = false;
  $("play-toggle").textContent = "play";
  $("game").innerHTML = ""; $("moves").innerHTML = ""; $("raw").textContent = "";
  $("chart").innerHTML = ""; setStatus("");
  $("picture-panel").hidden = true; $("picture").innerHTML = "";
  const select = $("table-select");
  select.title = select.selectedOptions.length ? select.selectedOptions[0].textContent : "";
  if (!name) return;
  if (name.startsWith("solver:")) {
    const [rows, cols] = name.slice(7).split("x").map(Number);
    $("table-about").textContent = `${rows}×${cols} board: answers from GET /api/solve`;
    view = slideView(rows, cols, (pos) => api(`/api/solve?rows=${rows}&cols=${cols}&position=${pos}&path=1`));
    $("chart").textContent = "Answered by search, so there is no stored distribution; each pattern table (pick one above) has its own.";
    return;
  }
  const t = tables.find((x) => x.file === name);
  if (!t || t.error) {
    $("table-about").textContent = "";
    showError(new Error(t ? t.error : `no table ${name} is served here`));
    return;
  }
  $("table-about").textContent = `${t.entries.toLocaleString()} positions, ${t.values} values`;
  const ask = (pos, extra = "") => api(`/api/tables/${encodeURIComponent(name)}/query?position=${encodeURIComponent(pos)}${extra}`);
  if (t.game === "chomp") view = chompView(param(t, "rows"), param(t, "cols"), ask);
  else if (["nim", "wythoff", "subtraction", "octal"].includes(t.game)) view = heapView(t, ask, name);
  else if (t.game === "slide") view = slideView(param(t, "rows"), param(t, "cols"), (pos) => ask(pos, "&path=1"));
  else if (["remoteness", "wlt", "dtz"].includes(t.values)) view = boardView(t, ask);
  else if (t.game === "weighing") view = textView(t, ask, String(param(t, "balls")));
  else view = textView(t, ask);
  chart(name);
}

// ---- answers ----------------------------------------------------------------------------

function showAnswer(a, play) {
  $("raw").textContent = JSON.stringify(a);
  const moves = $("moves");
  moves.innerHTML = "";
  let list = [];
  if (a.value !== undefined && Array.isArray(a.moves) && a.outcome === undefined) {
    // A two-player game: the value for the player to move, and every move with its value.
    let s = `Position <code id="position">${escapeHtml(a.position)}</code>: <span id="value" class="standing ${a.value}">${said(a.value, a.remoteness, a)}</span> for the player to move`;
    if (a.reachable === false) s += " · not reachable from the start";
    setStatus(s);
    if (!a.moves.length) moves.append(el("li", {}, "the game is over"));
    for (const m of a.moves) {
      const li = el("li");
      const b = el("button", { class: `move standing ${m.value}`, "data-leaves": m.leaves, "data-move": m.move }, m.move);
      b.addEventListener("click", () => play(m.leaves));
      li.append(b, `: ${said(m.value, m.remoteness, m)}`);
      moves.append(li);
    }
    return;
  }
  if (a.outcome) {
    let s = `Position <code id="position">${a.position}</code>: <span id="outcome" class="outcome ${a.outcome}">${a.outcome}</span> `;
    s += a.outcome === "P" ? "the player to move loses with best play" : "the player to move wins";
    if (a.grundy !== undefined) s += ` · Grundy value <b id="grundy">${a.grundy}</b>`;
    setStatus(s);
    list = a.winning_moves;
    const all = list.length + (a.more_winning_moves || 0);
    if (list.length) moves.append(el("li", {}, `${all} winning move${all > 1 ? "s" : ""}${a.more_winning_moves ? `, the first ${list.length} listed` : ""}:`));
  } else if (a.lower_bound !== undefined) {
    setStatus(`Position <code id="position">${a.position}</code>: lower bound <b>${a.lower_bound}</b> (${escapeHtml(a.counts)})`);
  } else if (a.solvable === false) {
    setStatus(`Position <code id="position">${a.position}</code>: <b id="distance">unsolvable</b> — ${escapeHtml(a.reason)}`);
  } else {
    let s = `Position <code id="position">${a.position}</code>: distance <b id="distance">${a.distance}</b>`;
    if (a.distance === 0) s += " (the goal)";
    if (a.nodes !== undefined) s += ` · ${a.nodes.toLocaleString()} nodes searched`;
    setStatus(s);
    list = a.optimal_moves;
    if (list.length) moves.append(el("li", {}, `optimal move${list.length > 1 ? "s" : ""}:`));
  }
  for (const m of list) {
    const li = el("li");
    if (Array.isArray(m.answers)) {
      // A choice against an adversary (the balance): the choice, then each answer to follow.
      li.append(el("span", { class: "choice" }, `${m.move}: `));
      for (const r of m.answers) {
        const b = el("button", { class: "move answer", "data-leaves": r.leaves, "data-move": r.move }, r.move);
        b.addEventListener("click", () => play(r.leaves));
        li.append(b, ` → ${r.leaves} `);
      }
      moves.append(li);
      continue;
    }
    const b = el("button", { class: "move", "data-leaves": m.leaves }, m.move);
    b.addEventListener("click", () => play(m.leaves));
    li.append(b, ` → ${m.leaves}`);
    moves.append(li);
  }
  // An answer lists the first optimal moves only (see MOVES_LISTED in src/answer.rs).
  if (a.more_optimal_moves) {
    moves.append(el("li", { class: "more" }, `and ${a.more_optimal_moves} more optimal move${a.more_optimal_moves > 1 ? "s" : ""}, as good as these`));
  }
}

// `win in 7`, `tie in 9`, `lose (the game is over)`, `draw`; a wlt table's `win`, `lose`,
// `tie or draw` (no remoteness); a dtz table's `cursed win, dtz 105`, ` (zeroing)` after a
// capture (`counted`, the answer or move, carries `wdl50`): as `gamedb query` says it.
function said(value, remoteness, counted) {
  if (counted && counted.wdl50 !== undefined) {
    return `${counted.wdl50.replace("-", " ")}, dtz ${counted.dtz}${counted.zeroing ? " (zeroing)" : ""}`;
  }
  if (value === "tie-or-draw") return "tie or draw";
  if (value === "draw" || remoteness === null || remoteness === undefined) return value;
  return remoteness === 0 ? `${value} (the game is over)` : `${value} in ${remoteness}`;
}

// ---- two-player games: the board, each move coloured by what it gives the mover ---------

// The board of a position: m,n,k-games and Connect Four both write rows of x, o and .
// separated by '/' (Connect Four reads a sequence of columns too, but answers with the board);
// chess is drawn by play.js's board, the one play mode shows. Other games keep the text box,
// with every move a button.
function cellsOf(t, pos) {
  if (t.game === "mnk" || t.game === "connect4") return pos.split("/").map((r) => r.split(""));
  return null;
}

function boardView(t, ask) {
  const start = t.game === "mnk" ? Array(param(t, "rows")).fill(".".repeat(param(t, "cols"))).join("/")
    : t.game === "connect4" ? "start" : t.game === "chess" ? chessStart(t) : "";
  const controls = el("div", { class: "controls" });
  const input = el("input", { type: "text", id: "position-input", value: start, placeholder: "a position" });
  const go = el("button", { id: "set" }, "ask");
  const restart = el("button", { id: "restart" }, "start again");
  controls.append(input, go, restart);
  const board = el("div", { id: "board" });
  $("game").append(el("p", {}, t.description), board, controls);
  let last = null;
  function draw(a) {
    board.innerHTML = "";
    if (t.game === "chess") {
      // The value and the distance to mate, and the board of play mode, each move said as the
      // list says it.
      if (a.wdl50 === undefined) $("status").insertAdjacentText("beforeend", mateWords(a.value, a.remoteness));
      const moves = a.moves.map((m) => ({ ...m, text: said(m.value, m.remoteness, m) }));
      board.append(chessBoard({ position: a.position, moves }, play));
      return;
    }
    const grid = cellsOf(t, a.position);
    if (!grid) return;
    const rows = grid.length, cols = grid[0].length, size = Math.max(28, Math.min(64, Math.floor(360 / Math.max(rows, cols))));
    const svg = el("svg:svg", { id: "board-svg", width: cols * size + 2, height: rows * size + 2 });
    const byLabel = new Map(a.moves.map((m) => [m.move, m]));
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      const label = t.game === "mnk" ? `${String.fromCharCode(97 + c)}${r + 1}` : `column ${c + 1}`;
      const m = grid[r][c] === "." ? byLabel.get(label) : undefined;
      const x = 1 + c * size, y = 1 + r * size;
      const sq = el("svg:rect", { class: `square${m ? " playable " + m.value : ""}`, x, y, width: size, height: size, "data-row": r, "data-col": c });
      if (m) {
        sq.append(el("svg:title", {}, `${m.move}: ${said(m.value, m.remoteness, m)}`));
        sq.addEventListener("click", () => play(m.leaves));
      }
      svg.append(sq);
      if (grid[r][c] !== ".") {
        svg.append(t.game === "connect4"
          ? el("svg:circle", { class: `disc ${grid[r][c]}`, cx: x + size / 2, cy: y + size / 2, r: size * 0.4 })
          : el("svg:text", { class: `mark ${grid[r][c]}`, x: x + size / 2, y: y + size * 0.68, "text-anchor": "middle", "font-size": size * 0.6 }, grid[r][c]));
      }
    }
    board.append(svg);
  }
  async function play(pos) {
    try {
      const a = await ask(pos);
      input.value = a.position;
      last = a;
      showAnswer(a, play);
      draw(a);
    } catch (e) { showError(e); }
  }
  go.addEventListener("click", () => input.value.trim() && play(input.value.trim()));
  input.addEventListener("keydown", (e) => { if (e.key === "Enter" && input.value.trim()) play(input.value.trim()); });
  restart.addEventListener("click", () => play(start));
  if (start) play(start);
  return { refresh: () => last && play(last.position) };
}

// ---- Chomp ------------------------------------------------------------------------------

function chompView(rows, cols, ask) {
  let pos = Array(rows).fill(cols);
  const cell = Math.max(18, Math.min(40, Math.floor(320 / Math.max(rows, cols)))); // the chart fits below on a laptop screen
  const svg = el("svg:svg", { id: "board", width: cols * cell + 2, height: rows * cell + 2 });
  const controls = el("div", { class: "controls" });
  const reset = el("button", { id: "reset" }, "whole box");
  reset.addEventListener("click", () => { pos = Array(rows).fill(cols); draw(); });
  controls.append(reset, el("span", {}, "Click a square to bite it and every square below and to its right; the top-left square is poisoned. Green squares are winning bites."));
  $("game").append(controls, svg);
  const text = () => { const p = pos.filter((x) => x > 0); return p.join(","); };
  let wins = new Set();
  function draw() {
    svg.innerHTML = "";
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const here = c < pos[r];
        const key = `(${r + 1},${c + 1})`;
        const cls = !here ? "eaten" : r === 0 && c === 0 ? "cell poison" : wins.has(key) ? "cell win" : "cell";
        const rect = el("svg:rect", { x: c * cell + 1, y: r * cell + 1, width: cell - 2, height: cell - 2,
          class: cls, "data-row": r + 1, "data-col": c + 1 });
        if (here && !(r === 0 && c === 0)) rect.addEventListener("click", () => bite(r, c));
        svg.append(rect);
        if (here && r === 0 && c === 0) {
          svg.append(el("svg:text", { x: c * cell + cell / 2, y: r * cell + cell / 2 + 5, "text-anchor": "middle", fill: "white" }, "☠"));
        }
      }
    }
  }
  function bite(r, c) {
    for (let k = r; k < rows; k++) pos[k] = Math.min(pos[k], c);
    refresh();
  }
  function play(leaves) {
    const p = leaves.split(",").map(Number);
    pos = Array.from({ length: rows }, (_, k) => p[k] || 0);
    refresh();
  }
  async function refresh() {
    wins = new Set();
    draw();
    if (!text() || text() === "0") return;
    try {
      const a = await ask(text());
      wins = new Set(a.winning_moves.map((m) => m.move));
      draw();
      showAnswer(a, play);
      if (text() === "1") setStatus($("status").innerHTML + " — only the poisoned square is left");
    } catch (e) { showError(e); }
  }
  refresh();
  return { refresh };
}

// ---- heap games: Nim, Wythoff, subtraction games, octal and hexadecimal codes -------------

const DRAWN = 40; // counters drawn per heap; a larger heap shows its first and last 20
const LISTED = 10000; // every move is asked for while the heaps hold at most this many counters

// A sum of heaps as a set of heaps with repeats (order and empty heaps do not matter), the
// key by which a click finds the listed move that leaves the same heaps.
const sumKey = (heaps) => heaps.filter((h) => h > 0).sort((a, b) => a - b).join(",");

// How many counters a listed move takes, when it plays in one heap: the heaps before and
// after differ by one heap replaced by what the move leaves there. Null for a move in two
// heaps at once (Wythoff's take from both).
function counted(before, after) {
  const count = new Map();
  for (const h of before) if (h > 0) count.set(h, (count.get(h) || 0) + 1);
  let left = 0;
  for (const h of after) {
    if (h === 0) continue;
    const c = count.get(h) || 0;
    if (c > 0) count.set(h, c - 1); else left += h;
  }
  const gone = [...count].flatMap(([h, c]) => Array(c).fill(h));
  return gone.length === 1 ? gone[0] - left : null;
}

function heapView(t, ask, name) {
  const game = t.game;
  const most = param(t, "max-heap");
  // Nim and Wythoff tables hold a fixed number of heaps, a subtraction table one; octal
  // positions are sums of any number of heaps.
  const fixed = game === "nim" ? param(t, "heaps") : game === "wythoff" ? 2 : game === "subtraction" ? 1 : 0;
  // A click on an octal heap takes a block of counters of the chosen size from the counter
  // clicked on (the counters before and after the block are the heaps left; a block of 0
  // splits the heap before that counter); in the other games it takes the counter clicked
  // and every counter after it (in Wythoff's game, when chosen, as many from the other heap).
  const blocks = game === "octal";
  let heaps = fixed === 0 ? [5, 7, 9].map((h) => Math.min(h, most))
    : game === "wythoff" ? [Math.min(7, most), Math.min(4, most)]
    : game === "subtraction" ? [Math.min(12, most)]
    : Array.from({ length: fixed }, (_, k) => Math.min(most, k + 1 + (k === fixed - 1 ? 1 : 0)));
  let answer = null;
  let moves = new Map(); // sumKey of the heaps a move leaves → the move as the answer lists it
  let takes = game === "wythoff" ? ["one", "both"] : []; // what a click may take
  let take = game === "wythoff" ? "one" : 1;
  let listedAll = false;

  const rules = {
    nim: "Click a counter to take it and every counter after it.",
    wythoff: "Click a counter to take it and every counter after it (with “the same from both”, as many from the other heap too).",
    subtraction: "Click a counter to take it and every counter after it: a move when that many is in the set.",
    octal: "A move takes counters from one heap as the code allows (digit k says what taking k may leave: 1 no heap, 2 one heap, 4 two heaps, 8 three). Choose how many a click takes: a click takes that many from the counter clicked on, and the counters before and after them are the heaps left (0 splits the heap before the counter).",
  }[game];
  const certificate = el("div", { id: "certificate", class: "facts" });
  const controls = el("div", { class: "controls" });
  const takeBox = el("span", { id: "takes" });
  const adder = el("button", { id: "add-heap" }, "add a heap");
  adder.addEventListener("click", () => { heaps.push(Math.min(5, most)); refresh(); });
  controls.append(takeBox);
  if (fixed === 0) controls.append(adder);
  const box = el("div", { id: "heaps" });
  const hint = el("p", { id: "heap-hint", class: "hint-line" }, "");
  $("game").append(el("p", {}, `${t.description}. ${rules}`), certificate, controls, box, hint);
  if (game === "octal") facts(name, certificate);
  if (game === "octal" || game === "subtraction") picture(name, most);

  // The counters a click on counter j (from 1) of heap i (from 0) takes: [heap, from, to]
  // runs, or null when the click cannot take them.
  function taken(i, j) {
    const h = heaps[i];
    if (blocks) {
      if (take === 0) return j > 1 ? [[i, j, h]] : null; // the part split off, after the cut
      return j + take - 1 <= h ? [[i, j, j + take - 1]] : null;
    }
    if (take !== "both") return [[i, j, h]];
    const o = 1 - i, n = h - j + 1;
    return heaps[o] >= n ? [[i, j, h], [o, heaps[o] - n + 1, heaps[o]]] : null;
  }
  // The heaps that click leaves, drawn in place: a heap cut in two becomes the counters
  // before the block and those after it.
  function after(i, j) {
    const runs = taken(i, j);
    if (!runs) return null;
    const p = heaps.slice();
    if (blocks) {
      const h = heaps[i];
      p.splice(i, 1, ...[j - 1, h - (j - 1) - take].filter((x) => x > 0));
      return p.length ? p : [0];
    }
    for (const [k, from] of runs) p[k] = from - 1;
    return p;
  }
  // The listed move that leaves the same heaps as that click, or null.
  function clicked(i, j) {
    const p = after(i, j);
    return p ? moves.get(sumKey(p)) || null : null;
  }

  function drawTakes() {
    takeBox.innerHTML = "";
    if (takes.length < (game === "wythoff" ? 2 : 1)) return;
    takeBox.append(el("span", {}, "a click takes"));
    for (const k of takes) {
      const label = k === 0 ? "0 (split)" : k === "one" ? "from this heap" : k === "both" ? "the same from both" : String(k);
      const b = el("button", { id: `take-${k}`, class: k === take ? "take chosen" : "take" }, label);
      b.addEventListener("click", () => { take = k; draw(); });
      takeBox.append(b);
    }
    if (blocks) takeBox.append(el("span", {}, take === 1 ? "counter" : "counters"));
  }

  function draw() {
    drawTakes();
    box.innerHTML = "";
    hint.textContent = ""; // the counter pointed at is drawn anew
    heaps.forEach((h, i) => {
      const row = el("div", { class: "heap" });
      const input = el("input", { type: "number", min: 0, max: most, value: h, id: `heap-${i + 1}`, title: `heap size, 0..${most}` });
      input.addEventListener("change", () => {
        heaps[i] = Math.max(0, Math.min(most, Math.floor(Number(input.value) || 0)));
        refresh();
      });
      row.append(el("label", { for: `heap-${i + 1}` }, `heap ${i + 1}`), input);
      // The counters: all of a small heap, the first and last DRAWN/2 of a large one, as
      // large as the row leaves room for (beside the label, the size and the buttons).
      const shown = h <= DRAWN ? [[1, h]] : [[1, DRAWN / 2], [h - DRAWN / 2 + 1, h]];
      const gap = h > DRAWN ? 36 : 0;
      const room = Math.max(240, (box.clientWidth || 560) - 250);
      const step = Math.max(8, Math.min(18, Math.floor((room - gap) / Math.max(1, Math.min(h, DRAWN)))));
      const r = Math.max(3, Math.round(step * 0.4));
      const width = Math.max(1, Math.min(h, DRAWN)) * step + gap + 4;
      const svg = el("svg:svg", { class: "counters", width, height: 2 * r + 6, "data-heap": i + 1 });
      let x = 2 + r;
      shown.forEach(([from, to], part) => {
        if (part === 1) {
          svg.append(el("svg:text", { x: x + gap / 2 - step / 2, y: r + 7, "text-anchor": "middle", "font-size": 12 }, "…"));
          x += gap;
        }
        for (let j = from; j <= to; j++) {
          const m = clicked(i, j);
          const cls = m ? (m.outcome === "P" ? "counter win" : "counter move") : "counter";
          const c = el("svg:circle", { cx: x, cy: r + 3, r, class: cls, "data-heap": i + 1, "data-counter": j });
          c.append(el("svg:title", {}, m ? `${m.move} → ${m.leaves}${m.outcome === "P" ? " (wins)" : ""}` : `counter ${j}`));
          c.addEventListener("mouseenter", () => point(i, j, true));
          c.addEventListener("mouseleave", () => point(i, j, false));
          c.addEventListener("click", () => play(i, j));
          svg.append(c);
          x += step;
        }
      });
      row.append(svg, el("span", { class: "count" }, h > DRAWN ? `${h.toLocaleString()} counters` : ""));
      if (fixed === 0 && heaps.length > 1) {
        const drop = el("button", { class: "drop-heap", id: `drop-${i + 1}`, title: "remove this heap" }, "×");
        drop.addEventListener("click", () => { heaps.splice(i, 1); refresh(); });
        row.append(drop);
      }
      box.append(row);
    });
  }

  // Pointing at a counter marks the counters a click takes and says what the move is.
  function point(i, j, on) {
    const runs = (on && taken(i, j)) || [];
    for (const c of box.querySelectorAll("circle.counter")) {
      const k = Number(c.dataset.heap) - 1, n = Number(c.dataset.counter);
      c.classList.toggle("taking", runs.some(([heap, from, to]) => heap === k && n >= from && n <= to));
    }
    const m = on && clicked(i, j);
    hint.textContent = !on || !answer ? ""
      : m ? `${m.move} → ${m.leaves}: ${m.outcome === "P" ? "a winning move (it leaves a P-position)" : "it leaves an N-position"}`
      : listedAll ? "no move takes these counters"
      : "not a winning move (with this many counters only the winning moves are listed)";
  }

  function play(i, j) {
    if (!clicked(i, j)) return;
    heaps = after(i, j);
    refresh();
  }

  // A listed move (a winning one) played by the heaps it leaves.
  function playLeaves(leaves) {
    const p = leaves.split(",").map(Number);
    heaps = fixed ? p.concat(Array(fixed).fill(0)).slice(0, fixed) : p.filter((h) => h > 0);
    if (!heaps.length) heaps = [0];
    refresh();
  }

  async function refresh() {
    answer = null; moves = new Map(); draw();
    const position = heaps.join(",");
    const counters = heaps.reduce((a, b) => a + b, 0);
    let a = null;
    try {
      // Every move with its value, while there are not too many; else the winning ones.
      if (counters <= LISTED) a = await ask(position, "&all_moves=1").catch(() => null);
      listedAll = a !== null;
      if (!a) a = await ask(position);
    } catch (e) { showError(e); return; }
    if (position !== heaps.join(",")) return; // changed meanwhile
    answer = a;
    const listed = a.moves || a.winning_moves.map((m) => ({ ...m, outcome: "P" }));
    const sizes = new Set();
    for (const m of listed) {
      const p = m.leaves.split(",").map(Number);
      moves.set(sumKey(p), m);
      const k = counted(heaps, p);
      if (k !== null) sizes.add(k);
    }
    if (blocks) {
      takes = [...sizes].sort((x, y) => x - y);
      if (takes.length && !takes.includes(take)) take = takes.includes(1) ? 1 : takes[0];
    }
    draw();
    showAnswer(a, playLeaves);
    if (!listedAll) setStatus($("status").innerHTML + ` <span class="hint-line">(over ${LISTED.toLocaleString()} counters: only the winning moves can be clicked)</span>`);
  }
  refresh();
  return { refresh };
}

// The period certificate and the rare values of an octal table, from GET /api/tables/FILE.
async function facts(name, box) {
  let info;
  box.textContent = "Reading the period certificate (the table's info: every value is read once)…";
  try { info = await api(`/api/tables/${encodeURIComponent(name)}`); } catch (e) { box.textContent = e.message; return; }
  if ($("table-select").value !== name) return;
  const last = info.entries - 1;
  const p = info.period, e = info.preperiod;
  const exceptional = e > 0 ? ` (the last exceptional value at heap ${e - 1})` : "";
  const period = info.proved
    ? `Periodic, proved: period <b id="period">${p}</b> from heap <b id="preperiod">${e}</b>${exceptional}, by the octal periodicity theorem over the values to heap ${last}.`
    : p !== null && p !== undefined
      ? `Not proved periodic: tentatively period <b id="period">${p}</b> from heap <b id="preperiod">${e}</b>${exceptional} (the values repeat so to heap ${last}).`
      : `Not proved periodic: no period repeats twice within heaps 0..${last}.`;
  box.innerHTML = "";
  box.append(el("p", { id: "period-text" }));
  $("period-text").innerHTML = period;
  if (info.rare_values) {
    const rare = info.rare_values.map((v) => `${v.value} (${v.heaps} heap${v.heaps === 1 ? "" : "s"}, the last ${v.last_heap})`).join(", ");
    const heaps = info.rare_heaps;
    const d = el("details", { id: "rare" });
    d.append(el("summary", {}, `Rare values (an even number of bits in v & ${info.rare_mask}; ${heaps.count.toLocaleString()} rare heaps): ${rare || "none"}`));
    d.append(el("p", {}, `Rare heaps (heap:value): ${heaps.first.map(([h, v]) => `${h}:${v}`).join(" ")}${heaps.count > heaps.first.length ? " …" : ""}`));
    box.append(d);
  }
}

// The sequence picture (GET /api/tables/FILE/plot?picture=sequence&from=A&to=B) of heaps A to
// B, with the range to zoom by; a service without the picture says so in a line.
function picture(name, most) {
  const panel = $("picture-panel");
  panel.hidden = false;
  const body = $("picture");
  body.innerHTML = "";
  const from = el("input", { type: "number", id: "picture-from", min: 0, max: most, value: 0 });
  const to = el("input", { type: "number", id: "picture-to", min: 0, max: most, value: Math.min(most, 1000) });
  const go = el("button", { id: "picture-draw" }, "draw");
  const whole = el("button", { id: "picture-whole" }, "every heap");
  const img = el("img", { id: "picture-img", alt: "the Grundy value of each heap" });
  const note = el("p", { id: "picture-note", class: "hint-line" });
  const controls = el("div", { class: "controls" });
  controls.append(el("label", { for: "picture-from" }, "heaps from"), from, el("label", { for: "picture-to" }, "to"), to, go, whole);
  body.append(controls, img, note);
  let shown = null;
  async function draw() {
    const a = Math.max(0, Math.min(most, Math.floor(Number(from.value) || 0)));
    const b = Math.max(a, Math.min(most, Math.floor(Number(to.value) || 0)));
    from.value = a; to.value = b;
    const url = `/api/tables/${encodeURIComponent(name)}/plot?picture=sequence&from=${a}&to=${b}`;
    note.textContent = "";
    try {
      const r = await fetch(url);
      if (r.status === 404) throw new Error(`No sequence picture from this service (GET …/plot: 404).`);
      if (!r.ok) {
        let why = r.statusText;
        try { why = (await r.json()).error || why; } catch (_) { /* not JSON */ }
        throw new Error(`The sequence picture could not be drawn: ${why}`);
      }
      const blob = await r.blob();
      if ($("table-select").value !== name) return;
      if (shown) URL.revokeObjectURL(shown);
      shown = URL.createObjectURL(blob);
      img.src = shown; img.hidden = false;
    } catch (e) {
      img.hidden = true;
      note.textContent = e.message;
    }
  }
  go.addEventListener("click", draw);
  whole.addEventListener("click", () => { from.value = 0; to.value = most; draw(); });
  for (const input of [from, to]) input.addEventListener("keydown", (e) => { if (e.key === "Enter") draw(); });
  draw();
}

// ---- sliding puzzles --------------------------------------------------------------------

function slideView(rows, cols, ask) {
  const n = rows * cols;
  const goal = Array.from({ length: n }, (_, i) => (i + 1) % n);
  let tiles = scramble(goal, 40, cols);
  let answer = null;
  let timer = null;
  const cell = Math.min(72, Math.floor(360 / Math.max(rows, cols)));
  const controls = el("div", { class: "controls" });
  const input = el("input", { type: "text", id: "position-input", value: tiles.join(",") });
  const go = el("button", { id: "set" }, "set");
  const shuffle = el("button", { id: "scramble" }, "scramble");
  const step = el("button", { id: "step" }, "step along the path");
  const playAll = el("button", { id: "play" }, "play the path");
  controls.append(input, go, shuffle, step, playAll);
  const svg = el("svg:svg", { id: "board", width: cols * cell + 2, height: rows * cell + 2 });
  $("game").append(el("p", {}, "Click a tile next to the blank to slide it. Green tiles are optimal moves."), controls, svg);
  go.addEventListener("click", () => { tiles = input.value.split(",").map((x) => Number(x.trim())); refresh(); });
  shuffle.addEventListener("click", () => { tiles = scramble(goal, 60, cols); refresh(); });
  step.addEventListener("click", () => stepPath());
  playAll.addEventListener("click", () => {
    if (timer) { clearInterval(timer); timer = null; return; }
    timer = setInterval(() => { if (!stepPath()) { clearInterval(timer); timer = null; } }, 350);
  });
  function optimalTiles() {
    const s = new Set();
    for (const m of (answer && answer.optimal_moves) || []) s.add(Number(m.move.split(" ")[1]));
    return s;
  }
  function draw() {
    svg.innerHTML = "";
    const opt = optimalTiles();
    tiles.forEach((t, i) => {
      const r = Math.floor(i / cols), c = i % cols;
      const rect = el("svg:rect", { x: c * cell + 1, y: r * cell + 1, width: cell - 2, height: cell - 2, rx: 6,
        class: t === 0 ? "blank" : opt.has(t) ? "tile opt" : "tile", "data-tile": t });
      if (t !== 0) rect.addEventListener("click", () => slide(i));
      svg.append(rect);
      if (t !== 0) svg.append(el("svg:text", { x: c * cell + cell / 2, y: r * cell + cell / 2 + 7, "text-anchor": "middle", "font-size": Math.floor(cell / 2.6) }, String(t)));
    });
  }
  function slide(i) {
    const b = tiles.indexOf(0);
    const adjacent = Math.abs(b - i) === cols || (Math.abs(b - i) === 1 && Math.floor(b / cols) === Math.floor(i / cols));
    if (!adjacent) return;
    tiles[b] = tiles[i]; tiles[i] = 0; refresh();
  }
  function stepPath() {
    if (!answer || !answer.path || answer.path.length === 0) return false;
    tiles = answer.path[0].leaves.split(",").map(Number);
    refresh();
    return true;
  }
  function play(leaves) { tiles = leaves.split(",").map(Number); refresh(); }
  async function refresh() {
    input.value = tiles.join(",");
    answer = null; draw();
    try { answer = await ask(tiles.join(",")); draw(); showAnswer(answer, play); } catch (e) { showError(e); }
  }
  refresh();
  return { refresh };
}

// A random walk from the goal: always solvable.
function scramble(goal, moves, cols) {
  const t = goal.slice();
  const n = t.length;
  let b = t.indexOf(0), last = -1;
  for (let k = 0; k < moves; k++) {
    const r = Math.floor(b / cols), c = b % cols, rows = n / cols;
    const next = [];
    if (r > 0) next.push(b - cols);
    if (r < rows - 1) next.push(b + cols);
    if (c > 0) next.push(b - 1);
    if (c < cols - 1) next.push(b + 1);
    const choices = next.filter((x) => x !== last);
    const to = choices[Math.floor(Math.random() * choices.length)];
    t[b] = t[to]; t[to] = 0; last = b; b = to;
  }
  return t;
}

// ---- any other table: a position typed in ----------------------------------------------

// `start`: a position to show at once (the weighing puzzle's start: every ball undecided).
function textView(t, ask, start) {
  const controls = el("div", { class: "controls" });
  const input = el("input", { type: "text", id: "position-input", placeholder: "a position, e.g. 13,0,0" });
  if (start) input.value = start;
  const go = el("button", { id: "set" }, "ask");
  controls.append(input, go);
  $("game").append(el("p", {}, t.description), controls);
  async function refresh() {
    if (!input.value.trim()) return;
    try { showAnswer(await ask(input.value.trim()), (leaves) => { input.value = leaves; refresh(); }); } catch (e) { showError(e); }
  }
  go.addEventListener("click", refresh);
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") refresh(); });
  if (start) refresh();
  return { refresh };
}

// ---- the value distribution chart -------------------------------------------------------

// Counts are drawn on a log scale (a count of 1 beside one of millions is still a bar) and
// every bar carries its count, so no non-zero value can vanish.
async function chart(name) {
  let d;
  try { d = await api(`/api/tables/${encodeURIComponent(name)}/values`); } catch (e) { $("chart").textContent = e.message; return; }
  if ($("table-select").value !== name) return; // another table was opened meanwhile
  const n = Math.max(1, d.counts.length);
  const max = Math.max(1, ...d.counts);
  const font = 12, charW = 7.2; // an estimate of a digit's width at 12px sans-serif
  const left = Math.ceil(String(10 ** Math.floor(Math.log10(max))).length * 1.35 * charW) + 12;
  const right = 10, bottom = 44, H = 180;
  const room = Math.max(520, Math.min(1100, $("chart").clientWidth - 4 || 860));
  const bw = Math.min(90, (room - left - right) / n);
  const W = Math.max(360, left + n * bw + right);
  const texts = d.counts.map((c) => (c > 0 ? c.toLocaleString() : ""));
  const longest = Math.max(1, ...texts.map((t) => t.length));
  const upright = longest * charW + 4 > bw; // counts written up the bar when they do not fit across
  const top = 8 + (upright ? longest * charW + 6 : font + 6);
  const scale = (c) => (H * Math.log10(1 + c)) / Math.log10(1 + max);
  const svg = el("svg:svg", { id: "chart-svg", width: W, height: top + H + bottom });
  // Grid lines at the powers of ten.
  svg.append(el("svg:text", { x: left - 6, y: top + H + 4, "text-anchor": "end", "font-size": font }, "0"));
  let last = top + H;
  for (let v = 1; v <= max; v *= 10) {
    const y = top + H - scale(v);
    svg.append(el("svg:line", { class: "grid", x1: left, y1: y, x2: W - right, y2: y }));
    if (last - y < font + 2) continue; // too close to the tick below to be read
    svg.append(el("svg:text", { x: left - 6, y: y + 4, "text-anchor": "end", "font-size": font }, v.toLocaleString()));
    last = y;
  }
  const every = Math.ceil(d.counts.length / Math.max(1, Math.floor((W - left) / 28)));
  d.counts.forEach((c, i) => {
    const x = left + i * bw;
    const cls = d.values === "outcome" ? `bar ${d.labels[i]}` : "bar";
    if (c > 0) {
      const h = Math.max(2, scale(c));
      const bar = el("svg:rect", { class: cls, x: x + Math.min(1, bw / 4), y: top + H - h,
        width: Math.max(1, bw - Math.min(2, bw / 2)), height: h, "data-index": i, "data-count": c });
      bar.append(el("svg:title", {}, `${d.labels[i]}: ${c.toLocaleString()} positions`));
      svg.append(bar);
      const cx = x + bw / 2, cy = top + H - h - 4;
      const label = upright
        ? el("svg:text", { class: "count", x: cx, y: cy, "font-size": font, "text-anchor": "start", "dominant-baseline": "central",
            transform: `rotate(-90 ${cx} ${cy})`, "data-index": i }, texts[i])
        : el("svg:text", { class: "count", x: cx, y: cy, "font-size": font, "text-anchor": "middle", "data-index": i }, texts[i]);
      svg.append(label);
    }
    if (i % every === 0) svg.append(el("svg:text", { x: x + bw / 2, y: top + H + 16, "text-anchor": "middle", "font-size": 12 }, d.labels[i]));
  });
  svg.append(el("svg:line", { x1: left, y1: top + H, x2: W - right, y2: top + H, stroke: "#555" }));
  const what = { distance: "distance to the goal", grundy: "Grundy value", outcome: "outcome" }[d.values] || d.values;
  const total = d.counts.reduce((a, b) => a + b, 0);
  svg.append(el("svg:text", { x: left + (W - left) / 2, y: top + H + 36, "text-anchor": "middle", "font-size": 13 },
    `${total.toLocaleString()} positions by ${what} (log scale)`));
  $("chart").append(svg);
}

start();
