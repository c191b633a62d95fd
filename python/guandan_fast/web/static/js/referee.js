// The referee's decisions at a Play table (docs/rules.md §10): the dialog
// that gives one against a team, and the list of those given so far. The
// server applies a decision or says why it cannot; the page only asks.

import { el } from "./cards.js";
import { penaltyText, teamName } from "./table.js";

export class RefereeDialog {
  // names: the decisions' names (/api/config's "penalties"); send(msg): to the table's socket.
  constructor(names, send) {
    this.names = names || {};
    this.send = send;
    this.dialog = document.getElementById("referee-dialog");
    this.team = document.getElementById("referee-team");
    this.seat = document.getElementById("referee-seat");
    const kinds = document.getElementById("referee-kinds");
    Object.entries(this.names).forEach(([kind, n], i) => {
      const label = el("label", "kind-choice");
      const radio = el("input");
      radio.type = "radio";
      radio.name = "referee-kind";
      radio.value = kind;
      radio.checked = i === 0;
      const text = el("span", "kind-text");
      if (n.zh) text.appendChild(el("span", "zh", n.zh));
      text.appendChild(el("span", "en", n.en));
      text.appendChild(el("span", "what muted", n.what));
      label.append(radio, text);
      kinds.appendChild(label);
    });
    this.team.addEventListener("change", () => this.fillSeats());
    document.getElementById("referee-form").addEventListener("submit", (e) => this.submit(e));
  }

  open(view) {
    const chosen = this.team.value;
    this.team.replaceChildren();
    for (const team of [0, 1]) {
      const o = el("option", "", `${teamName(team, view.humans)} (team ${team})`);
      o.value = String(team);
      this.team.appendChild(o);
    }
    if (chosen) this.team.value = chosen;
    this.fillSeats();
    this.dialog.showModal();
  }

  // The offender: left to the server's default, or one of the team's two seats.
  fillSeats() {
    const team = Number(this.team.value);
    this.seat.replaceChildren();
    const none = el("option", "", "not named");
    none.value = "";
    this.seat.appendChild(none);
    for (const seat of [team, team + 2]) {
      const o = el("option", "", `seat ${seat}`);
      o.value = String(seat);
      this.seat.appendChild(o);
    }
  }

  submit(e) {
    if (e.submitter && e.submitter.value !== "give") return;
    e.preventDefault();
    const kind = this.dialog.querySelector("input[name='referee-kind']:checked");
    if (!kind) return;
    const msg = { type: "penalize", team: Number(this.team.value), kind: kind.value };
    if (this.seat.value !== "") msg.seat = Number(this.seat.value);
    this.send(msg);
    this.dialog.close();
  }
}

// The match's decisions so far (view.penalties) into `list`, and the counted
// offences (view.penalty_counts) into `counts`; `panel` is hidden while there are none.
export function renderDecisions(panel, list, counts, view, names) {
  const given = view.penalties || [];
  panel.hidden = !given.length;
  list.replaceChildren();
  for (const p of given) {
    const li = el("li", `decision team-${p.team}`);
    li.appendChild(el("span", "when muted", `G${p.game_number + 1} · D${p.deal_number + 1}`));
    li.appendChild(el("span", "what", penaltyText(p.kind, names)));
    li.appendChild(el("span", "who", `${teamName(p.team, view.humans)} · seat ${p.seat}`));
    li.title = `game ${p.game_number + 1}, ${p.deal_number} deal${p.deal_number === 1 ? "" : "s"} finished, ${p.actions} actions into the deal`;
    list.appendChild(li);
  }
  const counted = [];
  for (const [kind, n] of Object.entries(view.penalty_counts || {})) {
    for (const team of [0, 1]) {
      if (n[team]) counted.push(`${teamName(team, view.humans)}: ${penaltyText(kind, names)} ×${n[team]}`);
    }
  }
  counts.textContent = counted.length ? `Counted (the third triggers): ${counted.join("; ")}` : "";
}
