// Play: one seat (or several, in turn) against the built-in bots. The page
// keeps only what is selected; the server says what the selection can be
// played as, applies the move, and moves the bots.

import { actionEl, cardEl, el, labelText } from "./cards.js";
import { renderHint } from "./hint.js";
import { api, postJSON, socket } from "./net.js";
import { RefereeDialog, renderDecisions } from "./referee.js";
import { renderLog, renderTable, seatLabel } from "./table.js";

const POLICIES = ["mc:200", "mc:1000", "sh:400", "rule", "greedy", "random"];

export class PlayView {
  constructor(app) {
    this.app = app;
    this.table = document.getElementById("play-table");
    this.bar = document.getElementById("play-actions");
    this.hintPanel = document.getElementById("play-hint");
    this.log = document.getElementById("play-log");
    this.view = null;
    this.tid = null;
    this.ws = null;
    this.selected = new Set();
    this.focus = 0;
    this.selection = null;
    this.hint = null;
    this.playouts = 400;
    this.revealed = null;
    document.getElementById("new-match").addEventListener("click", () => this.openDialog());
    document.getElementById("new-form").addEventListener("submit", (e) => this.submitDialog(e));
    this.referee = new RefereeDialog(app.config.penalties, (msg) => this.ws.send(msg));
    document.getElementById("referee").addEventListener("click", () => this.view && this.referee.open(this.view));
  }

  async show(tid) {
    if (tid && tid === this.tid) return;
    try {
      const data = tid ? await api(`/api/tables/${encodeURIComponent(tid)}`) : await postJSON("/api/tables", {});
      this.attach(data.id, data.view);
    } catch (e) {
      if (tid) {
        this.app.flash(`${e.message}: a new table is dealt`);
        const data = await postJSON("/api/tables", {});
        this.attach(data.id, data.view);
      } else {
        this.app.flash(e.message, true);
      }
    }
  }

  attach(tid, view) {
    if (this.ws) this.ws.close();
    this.tid = tid;
    this.app.setHash(`play/${tid}`);
    this.hint = null;
    this.onTable(view);
    this.ws = socket(`/ws/tables/${encodeURIComponent(tid)}`, (m) => this.onMessage(m), () => {
      this.app.flash("the connection to the server closed: reload the page to go on", true);
    });
  }

  onMessage(msg) {
    if (msg.type === "table") this.onTable(msg.view);
    else if (msg.type === "selection") {
      this.selection = msg;
      this.renderBar();
    } else if (msg.type === "hint") {
      if (msg.cancelled) {
        if (this.hint && this.hint.id === msg.id) this.hint = { ...this.hint, cancelled: true };
      } else this.hint = msg;
      this.renderHint();
    } else if (msg.type === "error") this.app.flash(msg.message, true);
  }

  onTable(view) {
    const moved = !this.view || this.view.version !== view.version;
    this.view = view;
    if (moved) {
      this.selected.clear();
      this.selection = null;
      const hand = view.seats[view.viewer].hand;
      this.focus = Math.min(this.focus, hand ? Math.max(hand.length - 1, 0) : 0);
      if (this.hint && this.hint.of === "now" && !this.hint.done) this.hint = { ...this.hint, cancelled: true };
    }
    document.getElementById("play-seed").textContent = `seed ${view.seed}`;
    this.render();
  }

  get myTurn() {
    return !!(this.view && this.view.choices && this.view.humans.includes(this.view.to_move));
  }

  cardsOf(indices) {
    const hand = this.view.seats[this.view.viewer].hand || [];
    return [...indices].sort((a, b) => a - b).map((i) => hand[i].c);
  }

  toggle(i) {
    if (!this.myTurn) return;
    const choices = this.view.choices;
    if (choices.kind === "tribute" || choices.kind === "return") this.selected = new Set(this.selected.has(i) ? [] : [i]);
    else if (this.selected.has(i)) this.selected.delete(i);
    else this.selected.add(i);
    this.focus = i;
    this.selection = null;
    this.ws.send({ type: "select", cards: this.cardsOf(this.selected) });
    this.render();
  }

  selectCards(action) {
    // Select the cards of a play offered by the server (a hint row, an extension).
    const hand = this.view.seats[this.view.viewer].hand || [];
    const want = action.t === "play" ? [...action.cards.map((c) => c.c), ...action.stands.map(() => action.wild.c)] : [action.card.c];
    const picked = new Set();
    for (const c of want) {
      const i = hand.findIndex((h, k) => h.c === c && !picked.has(k));
      if (i >= 0) picked.add(i);
    }
    this.selected = picked;
    this.ws.send({ type: "select", cards: this.cardsOf(picked) });
    this.render();
  }

  play(action) {
    this.ws.send({ type: "play", cards: this.cardsOf(this.selected), label: action.t === "play" ? action.label : null });
  }

  pass() {
    if (this.myTurn && this.view.choices.can_pass) this.ws.send({ type: "pass" });
  }

  runHint(playouts) {
    this.playouts = playouts;
    this.ws.send({ type: "hint", playouts });
  }

  render() {
    const v = this.view;
    if (!v) return;
    const choices = v.choices;
    const allowed = this.myTurn && choices.cards ? new Set(choices.cards) : null;
    let buttons = null;
    if (v.result) {
      buttons = el("div", "result-buttons");
      const over = v.phase === "match_over";
      const b = el("button", "btn primary", over ? "New match" : "Next deal");
      b.id = "next-deal";
      b.addEventListener("click", () => (over ? this.openDialog() : this.ws.send({ type: "next" })));
      buttons.appendChild(b);
    }
    const curtain = v.humans.length > 1 && this.revealed !== v.viewer && !v.result;
    renderTable(this.table, curtain ? hideHand(v) : v, {
      bottom: v.viewer,
      humans: v.humans,
      selected: this.selected,
      allowed,
      focus: this.myTurn ? this.focus : -1,
      onCard: this.myTurn && !curtain ? (i) => this.toggle(i) : null,
      resultButtons: buttons,
      penaltyNames: this.app.config.penalties,
    });
    if (curtain) {
      const c = el("div", "curtain");
      c.appendChild(el("p", "", `Seat ${v.viewer}'s turn`));
      const b = el("button", "btn primary", `Show seat ${v.viewer}'s hand`);
      b.addEventListener("click", () => {
        this.revealed = v.viewer;
        this.render();
      });
      c.appendChild(b);
      this.table.appendChild(c);
    }
    renderLog(this.log, v, v.viewer, v.humans, (step) => this.ws.send({ type: "why", step, playouts: this.playouts }));
    renderDecisions(document.getElementById("play-referee"), document.getElementById("play-decisions"), document.getElementById("play-counted"), v, this.app.config.penalties);
    this.renderBar();
    this.renderHint();
  }

  renderHint() {
    const v = this.view;
    const who = this.hint ? seatLabel(v, this.hint.seat, v.viewer, v.humans) + (this.hint.of === "step" ? ` (step ${this.hint.step + 1} of the deal)` : "") : "";
    renderHint(this.hintPanel, this.hint, {
      available: v && v.phase === "play" && this.myTurn,
      playouts: this.playouts,
      who,
      idle: "Hint: the engine's Monte Carlo estimate of every play you can make now. In the log, “why?” evaluates any decision from that seat's view.",
      onRun: (n) => this.runHint(n),
      onCancel: () => this.ws.send({ type: "cancel" }),
      onPick: this.myTurn && this.hint && this.hint.of === "now" ? (a) => (a.t === "pass" ? this.pass() : this.selectCards(a)) : null,
    });
  }

  renderBar() {
    const bar = this.bar;
    bar.replaceChildren();
    const v = this.view;
    if (!v) return;
    if (v.result) {
      bar.appendChild(el("span", "muted", v.phase === "match_over" ? "The match is over." : "The deal is over: N for the next one."));
      return;
    }
    if (!this.myTurn) {
      const who = v.to_move === null ? "" : seatLabel(v, v.to_move, v.viewer, v.humans);
      bar.appendChild(el("span", "waiting", who ? `${who} is thinking…` : ""));
      return;
    }
    const c = v.choices;
    const sel = this.selection;
    const main = el("div", "bar-main");
    if (c.kind === "tribute" || c.kind === "return") {
      main.appendChild(el("span", "prompt", c.kind === "tribute" ? "Pay tribute (进贡): give one of your highest cards" : "Return a card (还贡) to the player who paid you"));
      const opts = el("span", "allowed");
      for (const card of c.cards) {
        const hand = v.seats[v.viewer].hand;
        const found = hand.find((h) => h.c === card);
        if (found) opts.appendChild(cardEl(found, "micro"));
      }
      main.appendChild(opts);
      if (sel && sel.plays.length === 1) {
        const b = el("button", "btn primary play-btn", c.kind === "tribute" ? "Give as tribute" : "Return it");
        b.addEventListener("click", () => this.play(sel.plays[0]));
        main.appendChild(b);
      } else if (sel && sel.reason) main.appendChild(el("span", "reason", sel.reason));
      bar.appendChild(main);
      return;
    }
    main.appendChild(el("span", "prompt", c.lead ? "You lead: any play" : "Beat the play or pass"));
    if (sel && sel.plays.length) {
      if (sel.plays.length > 1) main.appendChild(el("span", "ask", "Play these cards as:"));
      for (const p of sel.plays) {
        const b = el("button", "btn primary play-btn");
        b.appendChild(el("span", "", sel.plays.length > 1 ? labelText(p) : `Play ${labelText(p)}`));
        b.title = p.text;
        b.addEventListener("click", () => this.play(p));
        main.appendChild(b);
      }
    } else if (sel && sel.reason && this.selected.size) main.appendChild(el("span", "reason", sel.reason));
    else if (!this.selected.size) main.appendChild(el("span", "muted", "Click cards (or ← → and Space) to select them."));
    const pass = el("button", "btn", "Pass");
    pass.id = "pass-btn";
    pass.disabled = !c.can_pass;
    pass.title = c.can_pass ? "Pass (P)" : "You lead: passing is not allowed";
    pass.addEventListener("click", () => this.pass());
    const clear = el("button", "btn ghost", "Clear");
    clear.disabled = !this.selected.size;
    clear.addEventListener("click", () => {
      this.selected.clear();
      this.selection = null;
      this.render();
    });
    const side = el("div", "bar-side");
    side.append(clear, pass);
    bar.append(main, side);
    if (sel && sel.extends.length) {
      const ext = el("div", "extends");
      ext.appendChild(el("span", "muted", "with more cards:"));
      for (const p of sel.extends) {
        const chip = el("button", "chip");
        chip.appendChild(actionEl(p, "micro"));
        chip.title = `select ${p.text}`;
        chip.addEventListener("click", () => this.selectCards(p));
        ext.appendChild(chip);
      }
      bar.appendChild(ext);
    }
  }

  key(e) {
    const v = this.view;
    if (!v) return false;
    if (e.key === "n" || e.key === "N") {
      if (v.result && v.phase !== "match_over") {
        this.ws.send({ type: "next" });
        return true;
      }
      return false;
    }
    if (!this.myTurn) return false;
    const hand = v.seats[v.viewer].hand || [];
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      this.focus = Math.max(0, Math.min(hand.length - 1, this.focus + (e.key === "ArrowLeft" ? -1 : 1)));
      this.render();
      return true;
    }
    if (e.key === " " || e.key === "ArrowUp") {
      if (hand.length) this.toggle(this.focus);
      return true;
    }
    if (e.key === "Enter") {
      if (this.selection && this.selection.plays.length === 1) this.play(this.selection.plays[0]);
      return true;
    }
    if (e.key === "p" || e.key === "P") {
      this.pass();
      return true;
    }
    if (e.key === "h" || e.key === "H") {
      if (v.phase === "play") this.runHint(this.playouts);
      return true;
    }
    if (e.key === "Escape") {
      this.selected.clear();
      this.selection = null;
      this.render();
      return true;
    }
    return false;
  }

  async openDialog() {
    const dialog = document.getElementById("new-dialog");
    const box = document.getElementById("seat-choices");
    box.replaceChildren();
    const cfg = this.app.config;
    const current = this.view ? this.view.bots : cfg.bots;
    for (let s = 0; s < 4; s++) {
      const label = el("label", `field team-${s % 2}`, `Seat ${s}`);
      const select = el("select");
      select.id = `seat-${s}`;
      const options = ["human", ...new Set([...POLICIES, ...Object.values(current)])];
      for (const p of options) {
        const o = el("option", "", p === "human" ? "You" : `bot ${p}`);
        o.value = p;
        if ((current[String(s)] || "human") === p) o.selected = true;
        select.appendChild(o);
      }
      label.appendChild(select);
      box.appendChild(label);
    }
    dialog.showModal();
  }

  async submitDialog(e) {
    const dialog = document.getElementById("new-dialog");
    if (e.submitter && e.submitter.value !== "start") return;
    e.preventDefault();
    const bots = {};
    for (let s = 0; s < 4; s++) {
      const p = document.getElementById(`seat-${s}`).value;
      if (p !== "human") bots[String(s)] = p;
    }
    const seedText = document.getElementById("new-seed").value;
    const body = { bots };
    if (seedText !== "") body.seed = Number(seedText);
    try {
      const data = await postJSON("/api/tables", body);
      dialog.close();
      this.revealed = null;
      this.attach(data.id, data.view);
    } catch (err) {
      this.app.flash(err.message, true);
    }
  }
}

function hideHand(view) {
  const seats = view.seats.map((s) => (s.seat === view.viewer ? { ...s, hand: null } : s));
  return { ...view, seats };
}
