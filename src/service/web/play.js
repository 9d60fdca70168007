// Play mode of the explorer: a game against perfect play. The service values every move
// (GET /api/tables/FILE/play, the same review `gamedb play` prints); this page draws the
// board, plays the computer's side with one of the best moves, and keeps the game in the
// address (?table=FILE&play=P0;P1;...&me=first) so that it can be shared.
"use strict";

// The position a game without a start is played from, by default (the box above the board
// takes any other).
function firstPosition(t) {
  const most = param(t, "max-heap");
  switch (t.game) {
    case "candy": return `${param(t, "max-candies")},0,0`;
    case "nim": return Array.from({ length: param(t, "heaps") }, (_, k) => Math.min(most, k + 3)).join(",");
    case "wythoff": return `${Math.min(7, most)},${Math.min(4, most)}`;
    case "subtraction": return String(Math.min(12, most));
    case "octal": return [5, 7].map((h) => Math.min(h, most)).join(",");
    case "chomp": return Array(param(t, "rows")).fill(param(t, "cols")).join(",");
    case "weighing": return "";
    case "chomp3": return `${param(t, "max") + 2},${param(t, "max")},${Math.max(0, param(t, "max") - 2)}`;
    case "slide": {
      const n = param(t, "rows") * param(t, "cols");
      return scramble(Array.from({ length: n }, (_, i) => (i + 1) % n), 40, param(t, "cols")).join(",");
    }
    case "chess": return chessStart(t);
    default: return "";
  }
}

// `b2: tie in 8`, with the best moves said to be so (the colour says it again, never alone).
function choiceText(c) { return `${c.text}${c.best ? " (best)" : ""}`; }

// A value for the first player, from a value for the player to move.
function forFirst(value, player) {
  if (player === "first") return value;
  return value === "win" ? "lose" : value === "lose" ? "win" : value;
}

function playMode(t, line, me) {
  const name = t.file;
  const state = {
    line: line && line.length ? line : [firstPosition(t)],
    undone: [],
    me: me || "first",
    pick: "first",
    game: null,
    timer: null,
  };
  $("game").innerHTML = ""; $("moves").innerHTML = ""; $("raw").textContent = ""; setStatus("");
  $("picture-panel").hidden = true;
  const controls = el("div", { class: "controls" });
  const meBox = el("select", { id: "play-me", title: "who plays which side" });
  for (const [v, label] of [["first", "I play first"], ["second", "I play second"], ["both", "I play both sides"]]) {
    meBox.append(el("option", { value: v }, label));
  }
  meBox.value = state.me;
  const pickBox = el("select", { id: "play-pick", title: "which best move the computer plays" });
  for (const [v, label] of [["first", "computer: first best move"], ["random", "computer: a best move at random"]]) {
    pickBox.append(el("option", { value: v }, label));
  }
  const from = el("input", { type: "text", id: "play-from", value: state.line[0], placeholder: "the game's start" });
  const newGame = el("button", { id: "play-new", title: "n" }, "new game");
  const undo = el("button", { id: "play-undo", title: "u" }, "undo");
  const redo = el("button", { id: "play-redo", title: "r" }, "redo");
  const hint = el("button", { id: "play-hint", title: "h" }, "hint");
  controls.append(meBox, pickBox, el("label", { for: "play-from" }, "from"), from, newGame, undo, redo, hint);
  const typed = el("div", { class: "controls" });
  const moveBox = el("input", { type: "text", id: "play-move", placeholder: "type a move, e.g. as listed" });
  const moveGo = el("button", { id: "play-move-go" }, "play");
  typed.append(moveBox, moveGo);
  const board = el("div", { id: "play-board" });
  const message = el("p", { id: "play-message", class: "play-message", "aria-live": "polite" });
  const history = el("div", { id: "play-history" });
  $("game").append(el("p", {}, `${t.description}. Keys: h hint, u undo, r redo, n new game; Tab and Enter play a listed move.`),
    controls, board, message, typed, history);

  meBox.addEventListener("change", () => { state.me = meBox.value; refresh(); });
  pickBox.addEventListener("change", () => { state.pick = pickBox.value; });
  newGame.addEventListener("click", () => restart());
  from.addEventListener("keydown", (e) => { if (e.key === "Enter") restart(); });
  undo.addEventListener("click", () => back());
  redo.addEventListener("click", () => again());
  hint.addEventListener("click", () => showHint());
  moveGo.addEventListener("click", () => typedMove());
  moveBox.addEventListener("keydown", (e) => { if (e.key === "Enter") typedMove(); });

  function restart() {
    state.line = [from.value.trim()];
    state.undone = [];
    refresh();
  }
  const mine = (player) => state.me === "both" || !state.game || state.game.players === 1 || player === state.me;
  // Back to the person's previous turn: the computer's reply goes too.
  function back() {
    let n = 0;
    while (state.line.length > 1 && (n === 0 || !mine(state.line.length % 2 === 1 ? "first" : "second"))) {
      state.undone.push(state.line.pop()); n++;
    }
    if (n) refresh(); else message.textContent = "Nothing to undo.";
  }
  function again() {
    let n = 0;
    while (state.undone.length) {
      state.line.push(state.undone.pop()); n++;
      if (mine(state.line.length % 2 === 1 ? "first" : "second")) break;
    }
    if (n) refresh(); else message.textContent = "Nothing to redo.";
  }
  function showHint() {
    const g = state.game;
    if (!g || g.turn.over) return;
    const best = g.turn.moves.filter((c) => c.best);
    message.textContent = `Hint: ${best[0].move} (${best[0].text})${best.length > 1 ? `; as good: ${best.slice(1).map((c) => c.move).join(", ")}` : ""}.`;
    for (const e of document.querySelectorAll("[data-leaves]")) e.classList.toggle("hinted", e.dataset.leaves === best[0].leaves);
  }
  function typedMove() {
    const g = state.game, text = moveBox.value.trim();
    if (!g || !text) return;
    const c = g.turn.moves.find((m) => m.move.toLowerCase() === text.toLowerCase() || m.leaves === text);
    if (!c) { message.textContent = `“${text}” is not a move here; the moves are listed on the right.`; return; }
    moveBox.value = "";
    play(c.leaves);
  }
  function play(leaves) {
    if (state.timer) return; // the computer is about to move
    state.line.push(leaves);
    state.undone = [];
    refresh();
  }

  async function refresh() {
    const line = state.line.join(";");
    const address = `?table=${encodeURIComponent(name)}&play=${encodeURIComponent(line)}&me=${state.me}`;
    window.history.replaceState(null, "", address);
    const me = state.me === "both" ? "" : `&me=${state.me}`;
    let g;
    try {
      g = await api(`/api/tables/${encodeURIComponent(name)}/play?line=${encodeURIComponent(line)}${me}`);
    } catch (e) {
      showError(e);
      if (state.line.length > 1) { state.line.pop(); }
      return;
    }
    if (state.line.join(";") !== line) return; // moved meanwhile
    state.game = g;
    if (!state.line[0]) { state.line[0] = g.plies.length ? g.plies[0].position : g.turn.position; from.value = state.line[0]; }
    draw(g);
    if (!g.turn.over && g.players === 2 && state.me !== "both" && g.turn.player !== state.me) {
      state.timer = setTimeout(() => {
        state.timer = null;
        const best = g.turn.moves.filter((c) => c.best);
        const c = state.pick === "random" ? best[Math.floor(Math.random() * best.length)] : best[0];
        message.textContent = `The computer plays ${c.move} (${c.text}).`;
        play(c.leaves);
      }, 350);
    }
  }

  function who(player) {
    if (state.game && state.game.players === 1) return "you";
    if (state.me === "both") return `the ${player} player`;
    return player === state.me ? "you" : "the computer";
  }

  function draw(g) {
    $("raw").textContent = JSON.stringify(g);
    const turn = g.turn;
    const n = g.plies.length + 1;
    if (turn.over) {
      const whose = g.players === 1 ? "" : ` for ${who(turn.player)} (to move)`;
      setStatus(`Position <code id="position">${escapeHtml(turn.position)}</code>: <span id="value" class="standing ${turn.value}">${escapeHtml(turn.text)}</span>${whose} · the game is over`);
      message.innerHTML = "";
      message.append(el("b", { id: "play-summary" }, g.summary || "The game is over."));
    } else {
      const mover = g.players === 1 ? "your move" : `${who(turn.player)} to move (the ${turn.player} player)`;
      const mate = t.game === "chess" ? escapeHtml(mateWords(turn.value, turn.remoteness)) : "";
      setStatus(`Move ${n} · ${mover} · <span id="value" class="standing ${turn.value}">${escapeHtml(turn.text)}</span>${mate} · position <code id="position">${escapeHtml(turn.position)}</code>`);
      if (message.querySelector("#play-summary")) message.textContent = "";
    }
    const moves = $("moves");
    moves.innerHTML = "";
    if (turn.over) moves.append(el("li", {}, "no move: the game is over"));
    for (const c of turn.moves) {
      const li = el("li");
      const b = el("button", { class: `move standing ${c.value}${c.best ? " best" : ""}`, "data-leaves": c.leaves, "data-move": c.move, "data-best": c.best ? "1" : "0" }, c.move);
      b.addEventListener("click", () => play(c.leaves));
      li.append(b, el("span", { class: "move-value" }, `${c.answer ? ` → the balance: ${c.answer}` : ""}: ${choiceText(c)}`));
      moves.append(li);
    }
    board.innerHTML = "";
    board.append(drawBoard(t, turn, play));
    drawHistory(g);
  }

  function drawHistory(g) {
    history.innerHTML = "";
    history.append(el("h3", {}, "Value history"));
    const points = g.plies.map((p) => ({ player: p.player, mark: p.before }));
    points.push({ player: g.turn.player, mark: { value: g.turn.value, remoteness: g.turn.remoteness } });
    const most = Math.max(1, ...points.map((p) => p.mark.remoteness || 0));
    const W = Math.max(240, Math.min(720, 60 + 26 * points.length)), H = 150, left = 36, top = 10, bottom = 30;
    const x = (i) => left + (i * (W - left - 12)) / Math.max(1, points.length - 1);
    const y = (r) => top + (H - top - bottom) * (1 - (r || 0) / most);
    const svg = el("svg:svg", { id: "play-chart", width: W, height: H, role: "img",
      "aria-label": "remoteness of each position of the game, coloured by the side winning" });
    svg.append(el("svg:line", { x1: left, y1: y(0), x2: W - 8, y2: y(0), stroke: "#999" }));
    svg.append(el("svg:text", { x: 4, y: y(most) + 4, "font-size": 11 }, String(most)));
    svg.append(el("svg:text", { x: 4, y: y(0) + 4, "font-size": 11 }, "0"));
    svg.append(el("svg:text", { x: left, y: H - 6, "font-size": 11 }, g.players === 1 ? "moves to the goal, by move played" : "remoteness by move; colour: who is winning"));
    let path = "";
    points.forEach((p, i) => { path += `${i ? "L" : "M"}${x(i)},${y(p.mark.remoteness)} `; });
    svg.append(el("svg:path", { d: path, fill: "none", stroke: "#90a4ae" }));
    points.forEach((p, i) => {
      const v = g.players === 1 ? p.mark.value : forFirst(p.mark.value, p.player);
      const winner = v === "win" ? "first" : v === "lose" ? "second" : v;
      const dot = el("svg:circle", { class: `dot ${winner}${i < g.plies.length && g.plies[i].mistake ? " mistake" : ""}`, cx: x(i), cy: y(p.mark.remoteness), r: 5, "data-index": i });
      dot.append(el("svg:title", {}, `before move ${i + 1}: ${p.player} player to move, ${p.mark.value}${p.mark.remoteness === null ? "" : ` in ${p.mark.remoteness}`}`));
      svg.append(dot);
    });
    history.append(svg);
    if (g.players === 2) {
      history.append(el("p", { class: "legend" },
        `Green: the first player (${who("first")}) is winning; red: the second player (${who("second")}) is winning; yellow: a tie; blue: a draw; a ring: a mistake.`));
    }
    const list = el("ol", { id: "play-plies" });
    for (const p of g.plies) {
      let s = `${who(p.player)}: ${p.played.move} — ${p.played.text}`;
      if (p.mistake && p.better) s += ` (a mistake: ${p.better.move} gave ${p.better.text})`;
      else if (p.better) s += ` (${p.better.move} gave ${p.better.text})`;
      list.append(el("li", { class: p.mistake ? "mistake" : "" }, s));
    }
    history.append(list);
  }

  // Keys, while the play mode is shown and no text box has the focus.
  document.onkeydown = (e) => {
    if (!document.getElementById("play-board")) { document.onkeydown = null; return; }
    if (["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName) || e.ctrlKey || e.metaKey || e.altKey) return;
    const act = { h: showHint, u: back, r: again, n: restart }[e.key];
    if (act) { e.preventDefault(); act(); }
  };
  refresh();
}

// ---- boards: each clickable part carries the position its move leaves (data-leaves) ------

function mark(elem, c, play) {
  elem.classList.add("playable", c.value);
  if (c.best) elem.classList.add("best");
  elem.setAttribute("data-leaves", c.leaves);
  elem.append(el("svg:title", {}, `${c.move}: ${choiceText(c)}`));
  elem.addEventListener("click", () => play(c.leaves));
}

function drawBoard(t, turn, play) {
  const byLabel = new Map(turn.moves.map((c) => [c.move, c]));
  const byLeaves = new Map(turn.moves.map((c) => [c.leaves, c]));
  const pos = turn.position;
  if (t.game === "quixo") return quixoBoard(turn, play);
  if (t.game === "chess") return chessBoard(turn, play);
  if (t.game === "mnk" || t.game === "connect4") {
    const grid = cellsOf(t, pos);
    const rows = grid.length, cols = grid[0].length, size = Math.max(28, Math.min(64, Math.floor(360 / Math.max(rows, cols))));
    const svg = el("svg:svg", { id: "board-svg", width: cols * size + 2, height: rows * size + 2 });
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      const label = t.game === "mnk" ? `${String.fromCharCode(97 + c)}${r + 1}` : t.game === "connect4" ? `column ${c + 1}` : null;
      const x = 1 + c * size, y = 1 + r * size;
      const sq = el("svg:rect", { class: "square", x, y, width: size, height: size, "data-row": r, "data-col": c });
      const m = label && grid[r][c] === "." ? byLabel.get(label) : undefined;
      // A Connect Four column is played at its lowest empty cell.
      if (m && (t.game !== "connect4" || r === rows - 1 || grid[r + 1][c] !== ".")) mark(sq, m, play);
      svg.append(sq);
      if (grid[r][c] !== ".") {
        svg.append(t.game === "connect4"
          ? el("svg:circle", { class: `disc ${grid[r][c]}`, cx: x + size / 2, cy: y + size / 2, r: size * 0.4 })
          : el("svg:text", { class: `mark ${grid[r][c]}`, x: x + size / 2, y: y + size * 0.68, "text-anchor": "middle", "font-size": size * 0.6 }, grid[r][c]));
      }
    }
    return svg;
  }
  if (t.game === "chomp" || t.game === "chomp3") {
    // Three-rowed Chomp: the first row is unbounded, so the bar is as long as it is now.
    const lens = pos.split(",").map(Number);
    const rows = t.game === "chomp3" ? 3 : param(t, "rows"), cols = t.game === "chomp3" ? Math.max(1, lens[0]) : param(t, "cols");
    const cell = Math.max(18, Math.min(40, Math.floor(320 / Math.max(rows, cols))));
    const svg = el("svg:svg", { id: "board-svg", width: cols * cell + 2, height: rows * cell + 2 });
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      const here = c < (lens[r] || 0);
      const poison = r === 0 && c === 0;
      const rect = el("svg:rect", { x: c * cell + 1, y: r * cell + 1, width: cell - 2, height: cell - 2,
        class: !here ? "eaten" : poison ? "cell poison" : "cell", "data-row": r + 1, "data-col": c + 1 });
      const m = here && !poison ? byLabel.get(`(${r + 1},${c + 1})`) : undefined;
      if (m) mark(rect, m, play);
      svg.append(rect);
      if (here && poison) svg.append(el("svg:text", { x: cell / 2, y: cell / 2 + 5, "text-anchor": "middle", fill: "white" }, "☠"));
    }
    return svg;
  }
  if (t.game === "slide") {
    const cols = param(t, "cols");
    const tiles = pos.split(",").map(Number);
    const rows = tiles.length / cols;
    const cell = Math.min(72, Math.floor(360 / Math.max(rows, cols)));
    const svg = el("svg:svg", { id: "board-svg", width: cols * cell + 2, height: rows * cell + 2 });
    const b = tiles.indexOf(0);
    tiles.forEach((tile, i) => {
      const r = Math.floor(i / cols), c = i % cols;
      const rect = el("svg:rect", { x: c * cell + 1, y: r * cell + 1, width: cell - 2, height: cell - 2, rx: 6,
        class: tile === 0 ? "blank" : "tile", "data-tile": tile });
      if (tile !== 0) {
        const after = tiles.slice(); after[b] = tile; after[i] = 0;
        const m = byLeaves.get(after.join(","));
        if (m) mark(rect, m, play);
      }
      svg.append(rect);
      if (tile !== 0) svg.append(el("svg:text", { x: c * cell + cell / 2, y: r * cell + cell / 2 + 7, "text-anchor": "middle", "font-size": Math.floor(cell / 2.6) }, String(tile)));
    });
    return svg;
  }
  if (["nim", "wythoff", "subtraction", "octal", "candy"].includes(t.game)) {
    // Candy: one heap of the candies left, a click takes from the clicked one to the end.
    // Heap games: a click takes the counter clicked and every one after it, when that is a
    // move (an octal split, or Wythoff's take from both, is played from the list).
    const nums = pos.split(",").map(Number);
    const heaps = t.game === "candy" ? [nums[0]] : nums;
    const box = el("div", { id: "heaps" });
    heaps.forEach((h, i) => {
      const row = el("div", { class: "heap" });
      row.append(el("span", { class: "heap-label" }, t.game === "candy" ? `${h} candies left` : `heap ${i + 1}: ${h}`));
      const shown = Math.min(h, 40), step = 16, r = 6;
      const svg = el("svg:svg", { class: "counters", width: Math.max(1, shown) * step + 4, height: 2 * r + 6, "data-heap": i + 1 });
      for (let j = 1; j <= shown; j++) {
        const c = el("svg:circle", { cx: 2 + r + (j - 1) * step, cy: r + 3, r, class: "counter", "data-heap": i + 1, "data-counter": j });
        let m;
        if (t.game === "candy") m = byLabel.get(`take ${h - j + 1}`);
        else {
          const after = heaps.slice(); after[i] = j - 1;
          m = byLeaves.get(after.join(",")) || turn.moves.find((x) => sumKey(x.leaves.split(",").map(Number)) === sumKey(after));
        }
        if (m) mark(c, m, play);
        svg.append(c);
      }
      row.append(svg);
      box.append(row);
    });
    if (t.game === "candy") box.append(el("p", {}, `The player to move holds ${nums[1]}, the other ${nums[2]}.`));
    return box;
  }
  if (t.game === "weighing") {
    // What is known, a ball for each (at most 40 of a kind drawn): ? may be heavy or light,
    // H only heavy, L only light, G known good. A weighing is chosen from the list, and the
    // balance answers with the worst result for the weigher.
    const [u, h, l, g] = pos.split(",").map(Number);
    const box = el("div", { id: "balls" });
    for (const [n, mark, words] of [[u, "?", "may be heavy or light"], [h, "H", "only heavy"], [l, "L", "only light"], [g, "G", "known good"]]) {
      const row = el("div", { class: "heap" });
      row.append(el("span", { class: "heap-label" }, `${n} ${words}`));
      const shown = Math.min(n, 40);
      const svg = el("svg:svg", { width: Math.max(1, shown) * 18 + 4, height: 22 });
      for (let j = 0; j < shown; j++) {
        svg.append(el("svg:circle", { class: `ball ${mark}`, cx: 11 + j * 18, cy: 11, r: 8 }));
        svg.append(el("svg:text", { x: 11 + j * 18, y: 15, "text-anchor": "middle", "font-size": 10 }, mark));
      }
      row.append(svg);
      box.append(row);
    }
    box.append(el("p", { class: "hint-line" }, "Choose a weighing from the list: the balance answers with the worst result for you."));
    return box;
  }
  const p = el("p", {}, "Position ");
  p.append(el("code", {}, pos));
  return p;
}

// Quixo in two clicks: the cube to take (each coloured by the best push it starts), then the
// end of its row or column where it goes back in (coloured by what that push gives).
function quixoBoard(turn, play) {
  const box = el("div", { id: "quixo" });
  const grid = turn.position.split(",")[0].split("/").map((r) => r.split(""));
  const n = grid.length, size = Math.max(36, Math.min(64, Math.floor(320 / n)));
  const pushes = turn.moves.map((c) => { const [from, to] = c.move.split(">"); return { c, from, to }; });
  const order = ["lose", "draw", "tie", "win"];
  let taken = null;
  function render() {
    box.innerHTML = "";
    const svg = el("svg:svg", { id: "board-svg", width: n * size + 2, height: n * size + 2 });
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      const name = `${String.fromCharCode(97 + c)}${r + 1}`;
      const x = 1 + c * size, y = 1 + r * size;
      const sq = el("svg:rect", { class: "square", x, y, width: size, height: size, "data-cell": name });
      if (taken === null) {
        const mine = pushes.filter((p) => p.from === name);
        if (mine.length) {
          const top = mine.reduce((a, b) => (order.indexOf(b.c.value) > order.indexOf(a.c.value) ? b : a));
          sq.classList.add("playable", "source", top.c.value);
          if (mine.some((p) => p.c.best)) sq.classList.add("best");
          sq.append(el("svg:title", {}, `take ${name}: ${mine.map((p) => `${p.c.move} ${p.c.text}`).join(", ")}`));
          sq.addEventListener("click", () => { taken = name; render(); });
        }
      } else if (name === taken) {
        sq.classList.add("playable", "taken");
        sq.append(el("svg:title", {}, `${name} taken: click again to put it back`));
        sq.addEventListener("click", () => { taken = null; render(); });
      } else {
        const p = pushes.find((q) => q.from === taken && q.to === name);
        if (p) mark(sq, p.c, play);
      }
      svg.append(sq);
      if (grid[r][c] !== ".") {
        svg.append(el("svg:text", { class: `mark ${grid[r][c]}`, x: x + size / 2, y: y + size * 0.68, "text-anchor": "middle", "font-size": size * 0.6 }, grid[r][c]));
      }
    }
    box.append(svg, el("p", { class: "hint-line", id: "quixo-step" }, taken === null
      ? "Click a cube to take (a blank one or one of yours, on the edge); the list gives every push."
      : `${taken} taken: click where it goes in, or ${taken} again to put it back.`));
  }
  render();
  return box;
}

// ---- chess ------------------------------------------------------------------------------

// A legal position of a table's ending to start from: the white king on a1, the black king
// on h8, white's other men on e2, f2, g2 and black's on b7, c7, d7 (none of them gives check
// there), white to move.
function chessStart(t) {
  const pair = (t.parameters || "").split(",").find((p) => p.startsWith("men="));
  const men = pair ? pair.slice(4) : "Kk";
  const cells = Array(64).fill("."); // a8 first, h1 last
  const at = (square, man) => { cells[(8 - Number(square[1])) * 8 + square.charCodeAt(0) - 97] = man; };
  at("a1", "K"); at("h8", "k");
  const black = men.indexOf("k");
  [...men.slice(1, black)].forEach((m, i) => at(["e2", "f2", "g2"][i], m));
  [...men.slice(black + 1)].forEach((m, i) => at(["b7", "c7", "d7"][i], m));
  const ranks = [];
  for (let r = 0; r < 8; r++) {
    ranks.push(cells.slice(8 * r, 8 * r + 8).join("").replace(/\.+/g, (run) => String(run.length)));
  }
  return `${ranks.join("/")} w - - 0 1`;
}

// The 64 squares of a FEN's board, a8 first and h1 last, "." for an empty one.
function fenSquares(fen) {
  const cells = [];
  for (const ch of fen.trim().split(/\s+/)[0]) {
    if (ch >= "1" && ch <= "8") for (let k = 0; k < Number(ch); k++) cells.push(".");
    else if (ch !== "/") cells.push(ch);
  }
  return cells;
}

const CHESS_MEN = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

// Win in r plies: mate in (r + 1) / 2 moves; lose in r: mated in r / 2.
function mateWords(value, remoteness) {
  if (remoteness === null || remoteness === undefined) return "";
  if (value === "win") return ` · mate in ${(remoteness + 1) / 2}`;
  if (value === "lose") return remoteness === 0 ? " · checkmated" : ` · mated in ${remoteness / 2}`;
  return "";
}

// The board, white at the bottom, in two clicks: a man of the side to move (each coloured by
// the best move it starts), then the square it goes to (coloured by what that move gives the
// mover). A pawn reaching the last rank becomes a queen from the board; every promotion is in
// the list. Each move's squares are read from the position it leaves.
function chessBoard(turn, play) {
  const box = el("div", { id: "chess" });
  const here = fenSquares(turn.position);
  const name = (i) => `${"abcdefgh"[i % 8]}${8 - Math.floor(i / 8)}`;
  const steps = turn.moves.map((c) => {
    const after = fenSquares(c.leaves);
    let from = -1, to = -1;
    for (let i = 0; i < 64; i++) if (here[i] !== after[i]) { if (after[i] === ".") from = i; else to = i; }
    return { c, from: name(from), to: name(to) };
  });
  const order = ["lose", "draw", "tie", "win"];
  let taken = null;
  function render() {
    box.innerHTML = "";
    const size = 44, edge = 16;
    const svg = el("svg:svg", { id: "board-svg", width: 8 * size + edge + 2, height: 8 * size + edge + 2 });
    for (let i = 0; i < 64; i++) {
      const r = Math.floor(i / 8), f = i % 8, sqName = name(i);
      const x = edge + f * size, y = 1 + r * size;
      const sq = el("svg:rect", { class: `square ${(r + f) % 2 ? "dark" : "light"}`, x, y, width: size, height: size, "data-square": sqName });
      if (taken === null) {
        const mine = steps.filter((p) => p.from === sqName);
        if (mine.length) {
          const top = mine.reduce((a, b) => (order.indexOf(b.c.value) > order.indexOf(a.c.value) ? b : a));
          sq.classList.add("playable", "source", top.c.value);
          if (mine.some((p) => p.c.best)) sq.classList.add("best");
          sq.append(el("svg:title", {}, `${sqName}: ${mine.map((p) => `${p.c.move} ${p.c.text}`).join(", ")}`));
          sq.addEventListener("click", () => { taken = sqName; render(); });
        }
      } else if (sqName === taken) {
        sq.classList.add("playable", "taken");
        sq.append(el("svg:title", {}, `${sqName} chosen: click it again to choose another man`));
        sq.addEventListener("click", () => { taken = null; render(); });
      } else {
        const there = steps.filter((q) => q.from === taken && q.to === sqName);
        const p = there.find((q) => q.c.move.includes("=Q")) || there[0];
        if (p) mark(sq, p.c, play);
      }
      svg.append(sq);
      if (here[i] !== ".") {
        const white = here[i] === here[i].toUpperCase();
        svg.append(el("svg:text", { class: `man ${white ? "white" : "black"}`, x: x + size / 2, y: y + size * 0.8, "text-anchor": "middle", "font-size": size * 0.82, "data-man": here[i] }, CHESS_MEN[here[i]]));
      }
    }
    for (let k = 0; k < 8; k++) {
      svg.append(el("svg:text", { class: "coordinate", x: edge / 2, y: 1 + k * size + size * 0.6, "text-anchor": "middle", "font-size": 11 }, String(8 - k)));
      svg.append(el("svg:text", { class: "coordinate", x: edge + k * size + size / 2, y: 8 * size + edge - 2, "text-anchor": "middle", "font-size": 11 }, "abcdefgh"[k]));
    }
    box.append(svg, el("p", { class: "hint-line", id: "chess-step" }, turn.moves.length === 0
      ? "No move: the game is over."
      : taken === null ? "Click a man to move; the list gives every move."
        : `${taken} chosen: click where it goes, or ${taken} again to choose another.`));
  }
  render();
  return box;
}
