// Akrotiri: the placed tiles (tiles.json: land quarters, landmark, ports, routes; turned by their
// rotation), Thera's start board (thera.json), goods cubes, temples and the two boats.
"use strict";
(function () {
  const SEATS = ["#d0342c", "#2f6fd6"];
  const CUBE = {blue: "#2f7fd0", green: "#3e9b3a", grey: "#8a8a8a", orange: "#ef8a1e"};
  const LM = {lake: ["#3d8fd6", "L"], tree: ["#2e7d32", "T"], mountain: ["#7a7a7a", "M"], volcano: ["#e0661b", "V"]};
  const S = 70;                                  // a tile cell in pixels; a quarter is S / 2
  const esc = (s) => window.boardlabEsc(s);
  const NODE = {N: [0.5, 0], E: [1, 0.5], S: [0.5, 1], W: [0, 0.5], C: [0.5, 0.5]};
  const ARM = {N: [0.5, 0.25], E: [0.75, 0.5], S: [0.5, 0.75], W: [0.25, 0.5]};

  const turn = (p, rot) => { let [u, v] = p; for (let k = 0; k < rot; k++) [u, v] = [1 - v, u]; return [u, v]; };
  const qbox = (q) => [(q & 1) * 0.5, (q >> 1) * 0.5];          // local top-left of quarter q (NW NE SW SE)

  function portPoint(q, at) {
    // where a port of quarter q sits (tile-local, before turning): by the arm it faces, or the inner corner
    const [u0, v0] = qbox(q), m = 0.07;
    if (at === "C") return [u0 + (u0 ? m : 0.5 - m), v0 + (v0 ? m : 0.5 - m)];
    const a = ARM[at];
    return [Math.min(u0 + 0.5 - m, Math.max(u0 + m, a[0])), Math.min(v0 + 0.5 - m, Math.max(v0 + m, a[1]))];
  }

  function tileParts(board, t) {
    // ports of a placed tile [id, x, y, rot] in board pixels, by port id
    const d = board.tiles[t[0]], out = {};
    d.ports.forEach((p) => {
      const [u, v] = turn(portPoint(p[1], p[2]), t[3]);
      out[p[0]] = [(t[1] + u) * S, (t[2] + v) * S];
    });
    return out;
  }

  function draw(board, pos, o) {
    const cells = pos.tiles.map((t) => [t[1], t[2]]).concat([[-1, -1], [0, 0]]);
    (o.targets || new Set()).forEach((t) => { if (t[0] === "c") cells.push(t.slice(1).split(",").map(Number)); });
    if (o.hl && o.hl[0] === "c") cells.push(o.hl.slice(1).split(",").map(Number));
    let cx0 = Math.min(...cells.map((c) => c[0])), cy0 = Math.min(...cells.map((c) => c[1]));
    let cx1 = Math.max(...cells.map((c) => c[0])) + 1, cy1 = Math.max(...cells.map((c) => c[1])) + 1;
    // at least 8 x 6 cells in view, so a board of a few tiles is not drawn huge
    const padx = Math.max(0, 8 - (cx1 - cx0)) / 2, pady = Math.max(0, 6 - (cy1 - cy0)) / 2;
    const x0 = (cx0 - padx - 0.3) * S, y0 = (cy0 - pady - 0.3) * S;
    const x1 = (cx1 + padx + 0.3) * S, y1 = (cy1 + pady + 0.3) * S;
    let s = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="' + [x0, y0, x1 - x0, y1 - y0].map((v) => v.toFixed(0)).join(" ") +
      '"><rect x="' + x0 + '" y="' + y0 + '" width="' + (x1 - x0) + '" height="' + (y1 - y0) + '" fill="#cfe3ef"/>';
    let routes = "", top = "";
    const ports = {};
    // Thera, the start board: 2 x 2 cells
    s += '<rect data-t="thera" x="' + (-S) + '" y="' + (-S) + '" width="' + 2 * S + '" height="' + 2 * S + '" fill="#8fc3e6" stroke="#555"/>';
    board.thera.quarters.forEach((q) => {
      // Thera's four inner quarters are one island; the corner pieces reach the start board's edge
      const inner = (q[0] === -1 || q[0] === 0) && (q[1] === -1 || q[1] === 0);
      const x = q[1] * S / 2 + (inner ? 0 : q[1] < 0 ? 0 : 5), y = q[0] * S / 2 + (inner ? 0 : q[0] < 0 ? 0 : 5);
      if (q[2]) s += '<rect x="' + x + '" y="' + y + '" width="' + (inner ? S / 2 : S / 2 - 5) + '" height="' + (inner ? S / 2 : S / 2 - 5) + '" fill="' + (inner ? "#d8b878" : "#e6d3a3") + '"/>';
    });
    [[-0.5, -1], [0.5, -1], [1, -0.5], [1, 0.5], [0.5, 1], [-0.5, 1], [-1, 0.5], [-1, -0.5]].forEach((e) => {
      routes += '<line x1="0" y1="0" x2="' + e[0] * S + '" y2="' + e[1] * S + '" stroke="#1d4e89" stroke-width="1.4" stroke-dasharray="4 3" opacity="0.55"/>';
    });
    top += '<text x="0" y="4" font-size="11" font-weight="700" text-anchor="middle" fill="#5a3d12">Thera</text>';
    board.thera.ports.forEach((p) => {
      const x = (p[2] + 0.5) * S / 2, y = (p[1] + (p[0] === "T0" ? 0.8 : 0.2)) * S / 2;
      ports[p[0] === "T0" ? 144 : 145] = [x, y];
      const cls = o.hl === p[0] ? " hl" : o.targets.has(p[0]) ? " cand" : "";
      top += '<circle data-t="' + p[0] + '" class="' + cls + '" cx="' + x + '" cy="' + y + '" r="5" fill="#fff" stroke="#1d4e89" stroke-width="1.5"><title>port ' + p[0] + "</title></circle>";
    });
    // the placed tiles
    pos.tiles.forEach((t) => {
      const d = board.tiles[t[0]], X = t[1] * S, Y = t[2] * S, rot = t[3];
      const P = (p) => { const [u, v] = turn(p, rot); return [X + u * S, Y + v * S]; };
      const cls = o.hl === "c" + t[1] + "," + t[2] ? " hl" : "";
      s += '<rect data-t="c' + t[1] + "," + t[2] + '" class="' + cls + '" x="' + X + '" y="' + Y + '" width="' + S + '" height="' + S + '" fill="#8fc3e6"><title>tile ' + t[0] + " on cell (" + t[1] + ", " + t[2] + "), rotation " + rot + "</title></rect>";
      routes += '<rect x="' + X + '" y="' + Y + '" width="' + S + '" height="' + S + '" fill="none" stroke="#6b7f8f" stroke-width="0.6" stroke-dasharray="2 2" pointer-events="none"/>';
      d.land.forEach((q) => {
        // land reaches the tile's edge (it joins the land of the next tile: one island) and stops at the arms
        const [u0, v0] = qbox(q), A = 0.07;
        const a = P([u0 ? 0.5 + A : 0, v0 ? 0.5 + A : 0]), b = P([u0 ? 1 : 0.5 - A, v0 ? 1 : 0.5 - A]);
        s += '<rect x="' + Math.min(a[0], b[0]).toFixed(1) + '" y="' + Math.min(a[1], b[1]).toFixed(1) + '" width="' + ((0.5 - A) * S).toFixed(1) +
          '" height="' + ((0.5 - A) * S).toFixed(1) + '" fill="#e6d3a3"/>';
      });
      const lq = qbox(d.lq), [lx, ly] = P([lq[0] + 0.25, lq[1] + 0.25]), lm = LM[d.lm];
      top += '<path d="M' + (lx - 8).toFixed(1) + "," + (ly + 6).toFixed(1) + " l8,-14 l8,14 z" + '" fill="' + lm[0] + '" opacity="0.9"/>' +
        '<text x="' + lx.toFixed(1) + '" y="' + (ly + 4.5).toFixed(1) + '" font-size="8" font-weight="700" text-anchor="middle" fill="#fff">' + lm[1] + "</text>";
      const node = {};
      Object.keys(NODE).forEach((k) => { node[k] = P(NODE[k]); });
      d.ports.forEach((p) => { node[p[0]] = P(portPoint(p[1], p[2])); });
      d.routes.forEach((r) => {
        const a = node[r[0]], b = node[r[1]];
        if (a && b) routes += '<line x1="' + a[0].toFixed(1) + '" y1="' + a[1].toFixed(1) + '" x2="' + b[0].toFixed(1) + '" y2="' + b[1].toFixed(1) + '" stroke="#1d4e89" stroke-width="1.4" stroke-dasharray="4 3" opacity="0.6"/>';
      });
      d.ports.forEach((p) => {
        const [x, y] = node[p[0]], k = +p[0].slice(1), tg = "p" + t[0] + "." + k;
        ports[4 * t[0] + k] = [x, y];
        const c2 = o.hl === tg ? " hl" : o.targets.has(tg) ? " cand" : "";
        top += '<circle data-t="' + tg + '" class="' + c2 + '" cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="4" fill="#fff" stroke="#1d4e89" stroke-width="1.3"><title>port ' + p[0] + " of tile " + t[0] + "</title></circle>";
      });
      top += '<text x="' + (X + S - 3) + '" y="' + (Y + S - 3) + '" font-size="7" text-anchor="end" fill="#2c5777">#' + t[0] + "</text>";
    });
    // cells where a tile may go now (play) or just went (view)
    o.targets.forEach((t) => {
      if (t[0] !== "c") return;
      const [x, y] = t.slice(1).split(",").map(Number);
      if (pos.tiles.some((u) => u[1] === x && u[2] === y)) return;
      top += '<rect data-t="' + t + '" class="cand" x="' + x * S + '" y="' + y * S + '" width="' + S + '" height="' + S + '" fill="#ffffff55"/>';
    });
    // goods cubes and temples on their quarters
    pos.cubes.forEach((c) => {
      let k = 0;
      c[2].forEach((n, col) => {
        for (let j = 0; j < n; j++, k++) {
          top += '<rect x="' + (c[1] * S / 2 + 4 + 7 * k) + '" y="' + (c[0] * S / 2 + S / 2 - 10) + '" width="6" height="6" fill="' + CUBE[board.colours[col]] + '" stroke="#222" stroke-width="0.6"/>';
        }
      });
    });
    pos.seats.forEach((x, p) => {
      x.temples.forEach((q) => {
        const cx = q[1] * S / 2 + S / 4 + 6, cy = q[0] * S / 2 + S / 4 - 2;
        top += '<path d="M' + (cx - 7) + "," + (cy + 6) + " h14 v-2 h-2 v-6 h2 l-7,-5 l-7,5 h2 v6 h-2 z" + '" fill="' + SEATS[p] + '" stroke="#222" stroke-width="0.8"><title>temple of seat ' + p + "</title></path>";
      });
    });
    pos.seats.forEach((x, p) => {
      const at = ports[x.port];
      if (!at) return;
      const bx = at[0] + (p ? 6 : -6), by = at[1] + (p ? -8 : 8);
      top += '<path d="M' + (bx - 9) + "," + by + " h18 l-4,6 h-10 z" + '" fill="' + SEATS[p] + '" stroke="#fff" stroke-width="1"><title>boat of seat ' + p + "</title></path>" +
        '<line x1="' + bx + '" y1="' + by + '" x2="' + bx + '" y2="' + (by - 9) + '" stroke="' + SEATS[p] + '" stroke-width="1.6"/>';
    });
    if (o.hl && o.hl[0] === "c") {
      const [x, y] = o.hl.slice(1).split(",").map(Number);
      top += '<rect x="' + x * S + '" y="' + y * S + '" width="' + S + '" height="' + S + '" fill="none" class="hl"/>';
    }
    return s + routes + top + "</svg>";
  }

  function count(v) { return Array.isArray(v) ? v.length : v; }

  function panel(board, pos, p, D) {
    const x = pos.seats[p];
    const cargo = x.cargo.map((n, k) => n ? n + " " + board.colours[k] : "").filter(Boolean).join(", ") || "empty";
    const H = (t) => '<span class="hidden-mark" title="hidden from the other player">' + t + "</span>";
    const hand = H(Array.isArray(x.hand) ? "maps " + (x.hand.join(", ") || "none") : x.hand + " map cards");
    const goals = H(Array.isArray(x.goals) ? "goals " + (x.goals.map((g) => "G" + (g < 9 ? "0" : "") + (g + 1)).join(", ") || "none") : x.goals + " goal cards");
    return "drachmas " + x.drachmas + " · cargo " + cargo + " · temples built " + x.temples.length + " · " + hand + " · " + goals +
      (x.tile === null || x.tile === undefined ? "" : " · " + H(x.tile < 0 ? "a tile in hand" : "tile in hand #" + x.tile)) +
      " · turns " + x.turns;
  }

  function info(board, pos) {
    return "Phase " + esc(pos.phase) + (pos.current !== null && pos.current !== undefined ? " · seat " + pos.current + " has " + pos.actions + " actions left" : "") +
      ' · <span class="hidden-mark">' + pos.pile + " tiles in the pile</span> · " +
      '<span class="hidden-mark">map decks ' + pos.decks.join(" / ") + "</span> · cubes off the market " +
      pos.market_out.map((n, k) => n + " " + board.colours[k]).join(", ") + " · " + pos.tiles.length + " tiles placed" +
      (pos.end ? " · end triggered by " + esc(pos.end) : "") + " · tile layouts assumed";
  }

  window.BOARDLAB_GAMES = window.BOARDLAB_GAMES || {};
  window.BOARDLAB_GAMES.akrotiri = {draw, panel, info, colour: (p) => SEATS[p % 2]};
})();
