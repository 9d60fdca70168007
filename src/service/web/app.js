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
  const wanted = new URLSearchParams(location.search).get("table");
  const usable = (name) => Array.from(select.options).some((o) => o.value === name && !o.disabled);
  let name = wanted && usable(wanted) ? wanted : landing();
  select.value = name;
  open(name);
  if (wanted && wanted !== name) {
    $("table-about").textContent = `no table ${wanted} is served here; showing ${name}. ` + $("table-about").textContent;
  }
}

// The table the page opens on without a ?table= in its address: a game drawn on the page
// (Chomp first, then Nim, Wythoff, a sliding puzzle), one whose value chart is quick to count
// (the largest such), else the first table that can be read.
function landing() {
  const rank = { chomp: 0, nim: 1, wythoff: 2, slide: 3 };
  const quick = 1 << 27;
  const usable = tables.filter((t) => !t.error);
  if (!usable.length) return $("table-select").options[0].value;
  const key = (t) => [t.game in rank ? rank[t.game] : 9, t.entries <= quick ? 0 : 1,
                      t.entries <= quick ? -t.entries : t.entries];
  const less = (a, b) => { const x = key(a), y = key(b); for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i]; return false; };
  return usable.reduce((best, t) => (less(t, best) ? t : best)).file;
}

async function open(name) {
  $("game").innerHTML = ""; $("moves").innerHTML = ""; $("raw").textContent = "";
  $("chart").innerHTML = ""; setStatus("");
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
  else if (t.game === "nim") view = heapsView(param(t, "heaps"), param(t, "max-heap"), ask, "nim");
  else if (t.game === "wythoff") view = heapsView(2, param(t, "max-heap"), ask, "wythoff");
  else if (t.game === "slide") view = slideView(param(t, "rows"), param(t, "cols"), (pos) => ask(pos, "&path=1"));
  else view = textView(t, ask);
  chart(name);
}

// ---- answers ----------------------------------------------------------------------------

function showAnswer(a, play) {
  $("raw").textContent = JSON.stringify(a);
  const moves = $("moves");
  moves.innerHTML = "";
  let list = [];
  if (a.outcome) {
    let s = `Position <code id="position">${a.position}</code>: <span id="outcome" class="outcome ${a.outcome}">${a.outcome}</span> `;
    s += a.outcome === "P" ? "the player to move loses with best play" : "the player to move wins";
    if (a.grundy !== undefined) s += ` · Grundy value <b id="grundy">${a.grundy}</b>`;
    setStatus(s);
    list = a.winning_moves;
    if (list.length) moves.append(el("li", {}, `${list.length} winning move${list.length > 1 ? "s" : ""}:`));
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
    const b = el("button", { class: "move", "data-leaves": m.leaves }, m.move);
    b.addEventListener("click", () => play(m.leaves));
    li.append(b, ` → ${m.leaves}`);
    moves.append(li);
  }
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

// ---- Nim and Wythoff --------------------------------------------------------------------

function heapsView(count, most, ask, game) {
  const start = game === "wythoff" ? [Math.min(7, most), Math.min(4, most)]
                                   : Array.from({ length: count }, (_, k) => Math.min(most, k + 1 + (k === count - 1 ? 1 : 0)));
  let heaps = start.slice(0, count);
  const box = el("div");
  $("game").append(el("p", {}, game === "wythoff"
    ? "Two heaps: take any number from one heap, or the same number from both."
    : `${count} heaps of 0..${most}: take from one heap.`), box);
  function draw() {
    box.innerHTML = "";
    heaps.forEach((h, k) => {
      const row = el("div", { class: "heap" });
      const input = el("input", { type: "number", min: 0, max: most, value: h, id: `heap-${k + 1}` });
      input.addEventListener("change", () => {
        const v = Math.max(0, Math.min(most, Math.floor(Number(input.value) || 0)));
        heaps[k] = v; refresh();
      });
      const tokens = el("span");
      for (let i = 0; i < Math.min(h, 64); i++) tokens.append(el("span", { class: "token" }));
      row.append(el("label", {}, `heap ${k + 1}`), input, tokens);
      box.append(row);
    });
  }
  function play(leaves) { heaps = leaves.split(",").map(Number).concat(Array(count).fill(0)).slice(0, count); refresh(); }
  async function refresh() {
    draw();
    try { showAnswer(await ask(heaps.join(",")), play); } catch (e) { showError(e); }
  }
  refresh();
  return { refresh };
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

function textView(t, ask) {
  const controls = el("div", { class: "controls" });
  const input = el("input", { type: "text", id: "position-input", placeholder: "a position, e.g. 13,0,0" });
  const go = el("button", { id: "set" }, "ask");
  controls.append(input, go);
  $("game").append(el("p", {}, t.description), controls);
  async function refresh() {
    if (!input.value.trim()) return;
    try { showAnswer(await ask(input.value.trim()), (leaves) => { input.value = leaves; refresh(); }); } catch (e) { showError(e); }
  }
  go.addEventListener("click", refresh);
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") refresh(); });
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
