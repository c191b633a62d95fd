// Watch: a record opened on the server, stepped through with every hand face
// up; the timeline shows the deals and, for the current deal, each decision
// grouped by trick. The server rebuilds the table at each step.

import { el, labelText, rankText } from "./cards.js";
import { renderHint } from "./hint.js";
import { api, postJSON, socket } from "./net.js";
import { renderTable, seatLabel } from "./table.js";

export class WatchView {
  constructor(app) {
    this.app = app;
    this.rid = null;
    this.summary = null;
    this.step = 0;
    this.view = null;
    this.cache = new Map();
    this.hint = null;
    this.playouts = 400;
    this.ws = null;
    this.pending = 0;
    document.getElementById("record-file").addEventListener("change", (e) => this.openFile(e.target.files[0]));
    document.getElementById("record-open").addEventListener("click", () => this.openText(document.getElementById("record-text").value));
    document.getElementById("watch-close").addEventListener("click", () => this.close());
    document.getElementById("watch-copy").addEventListener("click", () => this.copy());
    document.getElementById("watch-play").addEventListener("click", () => this.playFromHere());
    document.getElementById("tl-prev").addEventListener("click", () => this.go(this.step - 1));
    document.getElementById("tl-next").addEventListener("click", () => this.go(this.step + 1));
    document.getElementById("tl-first").addEventListener("click", () => this.go(this.deal().first));
    document.getElementById("tl-last").addEventListener("click", () => this.go(this.deal().first + this.deal().steps - 1));
  }

  async show(rid, step) {
    if (!rid) {
      if (!this.rid) this.openPanel(true);
      return;
    }
    if (rid !== this.rid) {
      try {
        const data = await api(`/api/records/${encodeURIComponent(rid)}`);
        this.attach(data.id, data.summary);
      } catch (e) {
        this.app.flash(e.message, true);
        this.close();
        return;
      }
    }
    if (step !== undefined && step !== this.step) this.go(step);
  }

  openPanel(open) {
    document.getElementById("open-record").hidden = !open;
    document.getElementById("watch").hidden = open;
  }

  async openFile(file) {
    if (!file) return;
    this.openText(await file.text());
  }

  async openText(text) {
    const err = document.getElementById("record-error");
    err.textContent = "";
    try {
      const data = await api("/api/records", { method: "POST", headers: { "Content-Type": "text/plain; charset=utf-8" }, body: text });
      this.attach(data.id, data.summary);
    } catch (e) {
      err.textContent = e.message;
    }
  }

  attach(rid, summary) {
    if (this.ws) this.ws.close();
    this.rid = rid;
    this.summary = summary;
    this.cache.clear();
    this.hint = null;
    this.step = -1;
    this.want = -1;
    this.ws = socket(`/ws/records/${encodeURIComponent(rid)}`, (m) => this.onMessage(m), null);
    this.openPanel(false);
    this.renderDeals();
    this.go(0);
  }

  close() {
    if (this.ws) this.ws.close();
    this.ws = null;
    this.rid = null;
    this.summary = null;
    this.app.setHash("watch");
    this.openPanel(true);
  }

  onMessage(msg) {
    if (msg.type === "hint") {
      if (msg.cancelled) {
        if (this.hint && this.hint.id === msg.id) this.hint = { ...this.hint, cancelled: true };
      } else this.hint = msg;
      this.renderHint();
    } else if (msg.type === "error") this.app.flash(msg.message, true);
  }

  dealIndexOf(step) {
    const deals = this.summary.deals;
    let lo = 0;
    let hi = deals.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (deals[mid].first <= step) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  deal(step = this.step) {
    return this.summary.deals[this.dealIndexOf(Math.max(step, 0))];
  }

  async go(step) {
    if (!this.summary) return;
    step = Math.max(0, Math.min(this.summary.steps - 1, step));
    this.want = step;
    if (step === this.step) return;
    const ticket = ++this.pending;
    let view = this.cache.get(step);
    if (!view) {
      try {
        view = await api(`/api/records/${encodeURIComponent(this.rid)}/steps/${step}`);
      } catch (e) {
        this.app.flash(e.message, true);
        return;
      }
      if (this.cache.size > 300) this.cache.delete(this.cache.keys().next().value);
      this.cache.set(step, view);
    }
    if (ticket !== this.pending) return;
    const dealChanged = !this.view || this.view.deal !== view.deal;
    this.step = step;
    this.view = view;
    if (this.hint && this.hint.step !== step) {
      if (!this.hint.done && this.ws) this.ws.send({ type: "cancel" });
      this.hint = null;
    }
    this.app.setHash(`watch/${this.rid}/${step}`);
    if (dealChanged) this.renderDeals();
    this.render();
  }

  trickStep(from, dir) {
    // Forward: the first step of the next trick; back: the first step of this
    // trick, or of the one before when already there.
    const d = this.deal(from);
    const trick = (k) => (k <= 0 ? -1 : d.moves[k - 1][2]);
    const start = (k) => {
      while (k > 0 && trick(k - 1) === trick(k)) k--;
      return k;
    };
    let i = from - d.first;
    if (dir > 0) {
      const t = trick(i);
      while (i < d.steps - 1 && trick(i) === t) i++;
    } else {
      const s = start(i);
      i = s < i ? s : start(Math.max(0, s - 1));
    }
    return d.first + i;
  }

  key(e) {
    if (!this.summary) return false;
    // Keys count from the step last asked for, so that fast presses all count.
    const at = this.want === undefined || this.want < 0 ? Math.max(this.step, 0) : this.want;
    const d = this.deal(at);
    const di = this.dealIndexOf(at);
    const moves = {
      ArrowRight: () => (e.shiftKey ? this.trickStep(at, 1) : at + 1),
      ArrowLeft: () => (e.shiftKey ? this.trickStep(at, -1) : at - 1),
      PageDown: () => (di + 1 < this.summary.deals.length ? this.summary.deals[di + 1].first : d.first + d.steps - 1),
      PageUp: () => (at > d.first ? d.first : this.summary.deals[Math.max(0, di - 1)].first),
      Home: () => 0,
      End: () => this.summary.steps - 1,
    };
    if (moves[e.key]) {
      this.go(moves[e.key]());
      return true;
    }
    if (e.key === "h" || e.key === "H") {
      this.runHint(this.playouts);
      return true;
    }
    return false;
  }

  runHint(playouts) {
    this.playouts = playouts;
    if (this.ws) this.ws.send({ type: "hint", step: this.step, playouts });
  }

  async copy() {
    const v = this.view;
    if (!v || !v.eval_command) {
      this.app.flash("Copy for eval needs a step where someone is to play");
      return;
    }
    try {
      await navigator.clipboard.writeText(v.eval_command);
      this.app.flash("copied: " + v.eval_command.slice(0, 60) + "…");
    } catch (e) {
      window.prompt("Copy this command:", v.eval_command);
    }
  }

  async playFromHere() {
    // A new Play table from this step's position: you in the seat to play, the bots of the command line's first bot in the others.
    const v = this.view;
    if (!v || !v.position) return;
    const policy = Object.values(this.app.config.bots)[0] || "mc:200";
    const bots = {};
    for (let s = 0; s < 4; s++) if (s !== v.to_move) bots[String(s)] = policy;
    try {
      const data = await postJSON("/api/tables", { position: v.position, bots });
      await this.app.showView("play", data.id);
    } catch (e) {
      this.app.flash(e.message, true);
    }
  }

  renderDeals() {
    const box = document.getElementById("tl-deals");
    box.replaceChildren();
    const s = this.summary;
    const current = this.dealIndexOf(Math.max(this.step, 0));
    let game = -1;
    s.deals.forEach((d, i) => {
      if (d.game !== game) {
        game = d.game;
        if (s.games.length > 1) box.appendChild(el("span", "tl-game", s.games[d.game].title));
      }
      const r = d.result;
      const b = el("button", "tl-deal" + (i === current ? " current" : "") + (r ? ` won-${r.winner}` : " unfinished"));
      b.setAttribute("role", "option");
      b.setAttribute("aria-selected", i === current ? "true" : "false");
      b.style.flexGrow = String(Math.max(1, d.steps));
      b.textContent = `${rankText(d.level)}`;
      b.title = `game ${d.game_number + 1}, deal ${d.deal_number + 1} at level ${rankText(d.level)}` + (r ? `: team ${r.winner} wins${r.gain ? " +" + r.gain : ""}` : ": not finished");
      b.addEventListener("click", () => this.go(d.first));
      box.appendChild(b);
    });
  }

  renderSteps() {
    const box = document.getElementById("tl-steps");
    box.replaceChildren();
    const d = this.deal();
    const i = this.step - d.first;
    const start = el("button", "tl-step dealt" + (i === 0 ? " current" : ""), "");
    start.title = "as dealt";
    start.addEventListener("click", () => this.go(d.first));
    box.appendChild(start);
    let trick = null;
    d.moves.forEach(([seat, kind, t], k) => {
      if (t !== trick) {
        trick = t;
        box.appendChild(el("span", "tl-trick", t === 0 ? "T" : String(t)));
      }
      const b = el("button", `tl-step ${kind} team-${seat % 2}` + (k + 1 === i ? " current" : ""));
      b.title = `${kind} by seat ${seat}` + (t ? ` (trick ${t})` : "");
      b.addEventListener("click", () => this.go(d.first + k + 1));
      box.appendChild(b);
    });
    const cur = box.querySelector(".current");
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  render() {
    const v = this.view;
    const s = this.summary;
    const d = this.deal();
    const i = this.step - d.first;
    renderTable(document.getElementById("watch-table"), v, { bottom: 0, faceUp: true, humans: [] });
    const info = document.getElementById("watch-info");
    info.replaceChildren();
    const g = s.games[v.game];
    info.appendChild(el("h3", "", g.title));
    if (g.note) info.appendChild(el("p", "note", g.note));
    const names = el("p", "muted", g.names.map((n, k) => `${k}: ${n}`).join(" · "));
    info.appendChild(names);
    const next = v.next ? `next: ${seatLabel(v, v.next[0], 0, [])} — ${labelText(v.next[1])}` : d.result ? "the deal is over" : "the record stops here";
    info.appendChild(el("p", "where", `step ${i} of ${d.steps - 1} · ${next}`));
    document.getElementById("tl-where").textContent =
      `${s.games.length > 1 ? g.title + " · " : ""}deal ${this.dealIndexOf(this.step) + 1} of ${s.deals.length} · step ${i}/${d.steps - 1}`;
    document.getElementById("tl-prev").disabled = this.step <= 0;
    document.getElementById("tl-next").disabled = this.step >= s.steps - 1;
    document.getElementById("watch-copy").disabled = !v.eval_command;
    document.getElementById("watch-play").disabled = !v.position;
    this.renderSteps();
    this.renderHint();
  }

  renderHint() {
    const v = this.view;
    if (!v) return;
    renderHint(document.getElementById("watch-hint"), this.hint, {
      available: v.phase === "play" && v.to_move !== null,
      playouts: this.playouts,
      who: this.hint ? `${seatLabel(v, this.hint.seat, 0, [])}'s view` : "",
      idle: v.phase === "play" ? "Evaluate the options of the seat to play, from what it knew; the move it made is marked." : "Nobody plays at this step.",
      onRun: (n) => this.runHint(n),
      onCancel: () => this.ws && this.ws.send({ type: "cancel" }),
    });
  }
}
