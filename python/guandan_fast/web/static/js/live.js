// Live: the tables of a platform server in this process (guandan-fast serve
// --web), read-only and face up, redrawn after every move.

import { el, labelText } from "./cards.js";
import { api, socket } from "./net.js";
import { renderTable } from "./table.js";

export class LiveView {
  constructor(app) {
    this.app = app;
    this.table = undefined;
    this.ws = null;
    this.timer = null;
    this.view = null;
  }

  async show(table) {
    await this.refresh();
    if (table === undefined && this.tables.length) table = this.tables[this.tables.length - 1].table;
    if (table !== undefined && table !== this.table) this.open(table);
    clearInterval(this.timer);
    this.timer = setInterval(() => this.refresh(), 2000);
  }

  hide() {
    clearInterval(this.timer);
    this.timer = null;
  }

  async refresh() {
    try {
      this.tables = (await api("/api/live")).tables;
    } catch (e) {
      this.tables = [];
    }
    const list = document.getElementById("live-list");
    list.replaceChildren();
    for (const t of this.tables) {
      const li = el("li", "live-item" + (t.table === this.table ? " current" : ""));
      const b = el("button", "btn ghost", `Table ${t.table}: ${t.names.join(", ")}`);
      b.addEventListener("click", () => this.open(t.table));
      li.appendChild(b);
      li.appendChild(el("span", "muted", t.over ? "over" : `game ${t.game_number + 1} · deal ${t.deal_number + 1}`));
      list.appendChild(li);
    }
    if (!this.tables.length) list.appendChild(el("li", "muted", "none yet"));
    if (this.table === undefined && this.tables.length && this.app.current === "live") this.open(this.tables[this.tables.length - 1].table);
  }

  open(table) {
    if (this.ws) this.ws.close();
    this.table = table;
    this.app.setHash(`live/${table}`);
    this.ws = socket(`/ws/live/${table}`, (m) => {
      if (m.type === "live") {
        this.view = m.view;
        this.render();
      }
    }, null);
  }

  render() {
    const v = this.view;
    renderTable(document.getElementById("live-table"), v, { bottom: 0, faceUp: true, humans: [] });
    const info = document.getElementById("live-info");
    info.replaceChildren();
    info.appendChild(el("h3", "", `Table ${v.table}`));
    info.appendChild(el("p", "muted", v.seats.map((s) => `${s.seat}: ${s.name}`).join(" · ")));
    const last = v.log.length ? v.log[v.log.length - 1] : null;
    if (last) info.appendChild(el("p", "", `last: ${v.seats[last[0]].name} — ${labelText(last[1])}`));
    if (v.last_deal) {
      const d = v.last_deal;
      info.appendChild(el("p", "", `last deal: seats ${d.finish_order.join(", ")} out in that order; levels ${d.levels.join(" : ")}`));
    }
    if (v.over) info.appendChild(el("p", "note", "the match is over"));
  }
}
