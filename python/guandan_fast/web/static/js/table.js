// The table drawn from a view the server sent (guandan_fast.web.views.table_view):
// the scoreboard, four seats around the trick, the hands, the tribute and the
// deal's result. Play and Watch draw the same table.

import { actionEl, cardBack, cardEl, el, rankText } from "./cards.js";

const PLACES = ["1st", "2nd", "3rd", "4th"];
const SIDES = ["bottom", "right", "top", "left"];

export function sideOf(seat, bottom) {
  return SIDES[(seat - bottom + 4) % 4];
}

export function seatLabel(view, seat, bottom, humans) {
  const s = view.seats[seat];
  if (humans && humans.length === 1) {
    if (seat === humans[0]) return "You";
    if (seat === (humans[0] + 2) % 4) return `Partner · ${s.name}`;
  }
  return s.name;
}

export function teamName(team, humans) {
  if (humans && humans.length === 1) return humans[0] % 2 === team ? "Your team" : "Opponents";
  return team === 0 ? "Seats 0 & 2" : "Seats 1 & 3";
}

function scoreboard(view, humans) {
  const box = el("div", "scoreboard");
  for (const team of [0, 1]) {
    const t = el("div", `team team-${team}` + (view.declarer === team ? " declarer" : ""));
    t.appendChild(el("span", "team-name", teamName(team, humans)));
    const lv = el("span", "team-level", rankText(view.levels[team]));
    lv.title = "level";
    t.appendChild(lv);
    if (view.levels[team] === "A") {
      const max = view.a_max_attempts === null ? "∞" : view.a_max_attempts;
      t.appendChild(el("span", "a-tries", `A: ${view.a_fails[team]} failed of ${max}`));
    }
    if (view.best_of > 1) t.appendChild(el("span", "games-won", `games ${view.games_won[team]}`));
    box.appendChild(t);
  }
  const info = el("div", "deal-info");
  info.appendChild(el("span", "playing", `Playing ${rankText(view.level)}`));
  const settled = view.result && view.result.settled !== false; // a deal the referee ended is not counted
  info.appendChild(el("span", "muted", `Game ${view.game_number + 1} · deal ${view.deal_number + (settled ? 0 : 1)}`));
  box.insertBefore(info, box.children[1]);
  return box;
}

function seatPlate(view, seat, bottom, humans) {
  const s = view.seats[seat];
  const plate = el("div", `plate team-${seat % 2}` + (view.to_move === seat ? " to-move" : ""));
  plate.appendChild(el("span", "seat-no", String(seat)));
  const name = el("span", "seat-name", seatLabel(view, seat, bottom, humans));
  name.title = s.name;
  plate.appendChild(name);
  if (!s.human && humans && humans.length) plate.appendChild(el("span", "bot-tag", "bot"));
  if (s.place) plate.appendChild(el("span", "place", PLACES[s.place - 1]));
  else plate.appendChild(el("span", "count", `${s.count}`)).title = `${s.count} cards left`;
  if (view.to_move === seat) plate.appendChild(el("span", "turn", view.phase === "play" ? "to play" : view.phase === "tribute" ? "pays tribute" : "returns"));
  return plate;
}

function otherHand(s, faceUp) {
  const row = el("div", "mini-hand");
  if (faceUp && s.hand) {
    for (const c of s.hand) row.appendChild(cardEl(c, "mini"));
  } else if (s.count > 0) {
    const stack = el("div", "back-stack");
    for (let i = 0; i < Math.min(s.count, 6); i++) stack.appendChild(cardBack("mini"));
    row.appendChild(stack);
  }
  return row;
}

// The hand of the bottom seat: cards in the server's order, grouped by rank.
function bigHand(s, opts) {
  const row = el("div", "hand");
  row.setAttribute("role", "listbox");
  row.setAttribute("aria-multiselectable", "true");
  row.setAttribute("aria-label", "your hand");
  if (!s.hand) {
    for (let i = 0; i < Math.min(s.count, 27); i++) row.appendChild(cardBack());
    return row;
  }
  let prev = null;
  s.hand.forEach((c, i) => {
    const card = cardEl(c);
    card.setAttribute("role", "option");
    card.dataset.index = String(i);
    if (prev !== null && prev !== c.r) card.classList.add("rank-gap");
    prev = c.r;
    if (opts.selected && opts.selected.has(i)) {
      card.classList.add("selected");
      card.setAttribute("aria-selected", "true");
    }
    if (opts.allowed && !opts.allowed.has(c.c)) card.classList.add("dim");
    if (opts.focus === i) card.classList.add("focus");
    if (opts.onCard) {
      card.tabIndex = -1;
      card.addEventListener("click", () => opts.onCard(i));
    }
    row.appendChild(card);
  });
  return row;
}

// Who in the tribute strip: you and your partner by name, else the seat number.
function who(view, seat, bottom, humans) {
  return humans && humans.length === 1 ? seatLabel(view, seat, bottom, humans) : `seat ${seat}`;
}

function tributeStrip(view, bottom, humans) {
  const t = view.tribute;
  if (!t) return null;
  const strip = el("div", "tribute-strip");
  if (t.kind === "resisted") {
    const holders = (t.resisters || []).map((s) => who(view, s, bottom, humans)).join(" and ");
    strip.appendChild(el("span", "tag resist", "抗贡"));
    strip.appendChild(el("span", "", `No tribute: ${holders || "the payers"} hold${(t.resisters || []).length === 1 ? "s" : ""} both big jokers.`));
    return strip;
  }
  strip.appendChild(el("span", "tag", t.kind === "double" ? "Double tribute 双贡" : "Tribute 进贡"));
  if (!t.tributes.length) strip.appendChild(el("span", "muted", `${t.givers.map((s) => who(view, s, bottom, humans)).join(" and ")} to pay`));
  for (const [g, r, card] of t.tributes) {
    const item = el("span", "tr-item");
    item.appendChild(el("span", "", `${who(view, g, bottom, humans)} → ${r === null ? "?" : who(view, r, bottom, humans)}`));
    item.appendChild(cardEl(card, "micro"));
    strip.appendChild(item);
  }
  for (const [r, g, card] of t.returns) {
    const item = el("span", "tr-item back");
    item.appendChild(el("span", "", `${who(view, r, bottom, humans)} returns → ${who(view, g, bottom, humans)}`));
    item.appendChild(cardEl(card, "micro"));
    strip.appendChild(item);
  }
  return strip;
}

// A referee's decision (guandan_fast.web.views.PENALTY_NAMES): its Chinese and English names.
export function penaltyText(kind, names) {
  const n = names && names[kind];
  return n ? [n.zh, n.en].filter((t) => t).join(" ") : kind.replaceAll("_", " ");
}

function settledBox(box, view, bottom, humans) {
  const r = view.result;
  const order = el("ol", "finish");
  r.finish_order.forEach((s, i) => {
    const li = el("li", `team-${s % 2}`);
    li.appendChild(el("span", "place", PLACES[i]));
    li.appendChild(el("span", "", seatLabel(view, s, bottom, humans)));
    order.appendChild(li);
  });
  box.appendChild(order);
  const gain = r.gain ? ` +${r.gain} level${r.gain === 1 ? "" : "s"}` : "";
  box.appendChild(el("p", `verdict team-${r.winner}`, `${teamName(r.winner, humans)} win${teamName(r.winner, humans) === "Your team" ? "s" : ""} the deal${gain}`));
}

// The box over the table once the deal is over: its settlement (or that a
// referee's decision ended the deal, the game or the match) and the deal's
// decisions (named by opts.penaltyNames).
function resultBox(view, bottom, humans, opts) {
  const r = view.result;
  const settled = r.settled !== false;
  const box = el("div", "result");
  box.appendChild(el("h2", "", view.phase === "match_over" ? "Match over" : view.phase === "game_over" ? "Game over" : "Deal over"));
  if (settled) settledBox(box, view, bottom, humans);
  for (const p of r.referee || []) {
    const note = el("p", `referee-note team-${p.team}`);
    note.append(el("strong", "", `Referee, against ${teamName(p.team, humans)} (seat ${p.seat}):`), ` ${penaltyText(p.kind, opts.penaltyNames)}`);
    box.appendChild(note);
  }
  const levels = settled && !(r.referee || []).length ? r.levels : view.levels; // a decision after the settlement moves them
  box.appendChild(el("p", "levels-after", `Levels now: ${teamName(0, humans)} at ${rankText(levels[0])}, ${teamName(1, humans)} at ${rankText(levels[1])}`));
  if (r.a_failed) box.appendChild(el("p", "muted", r.a_reset ? "The attempt at A failed; the team drops back." : "The attempt at A failed."));
  if (r.game_winner !== null && r.game_winner !== undefined) {
    const what = !settled && view.phase === "match_over" ? "match" : "game";
    box.appendChild(el("p", "game-won", `${teamName(r.game_winner, humans)} win the ${what}!`));
  }
  if (opts.resultButtons) box.appendChild(opts.resultButtons);
  return box;
}

// Draws `view` into `root`. opts: bottom (seat at the bottom), faceUp (all
// hands shown), humans, selected (Set of hand indices), allowed (Set of card
// texts that may be chosen), focus, onCard(i), resultButtons (an element),
// onPlay(seat) (a click on a seat's play this trick), penaltyNames (the
// referee's decisions' names, from /api/config).
export function renderTable(root, view, opts) {
  const bottom = opts.bottom;
  const humans = opts.humans || [];
  root.replaceChildren();
  root.appendChild(scoreboard(view, humans));
  const strip = tributeStrip(view, bottom, humans);
  if (strip) root.appendChild(strip);
  const grid = el("div", "table-grid");
  for (let seat = 0; seat < 4; seat++) {
    const side = sideOf(seat, bottom);
    const s = view.seats[seat];
    const box = el("div", `seat seat-${side}` + (view.to_move === seat ? " active" : "") + (s.place ? " out" : ""));
    box.dataset.seat = String(seat);
    box.appendChild(seatPlate(view, seat, bottom, humans));
    if (side === "bottom") box.appendChild(bigHand(s, opts));
    else box.appendChild(otherHand(s, opts.faceUp || !!s.hand));
    grid.appendChild(box);
  }
  const center = el("div", "center");
  for (let seat = 0; seat < 4; seat++) {
    const slot = el("div", `slot slot-${sideOf(seat, bottom)}`);
    slot.dataset.seat = String(seat);
    const play = view.seats[seat].play;
    if (play) {
      const v = actionEl(play);
      if (view.top_seat === seat && view.top) v.classList.add("to-beat");
      slot.appendChild(v);
    } else if (view.to_move === seat && view.phase === "play") {
      slot.appendChild(el("div", "thinking", humans.includes(seat) ? "" : "…"));
    }
    center.appendChild(slot);
  }
  if (view.phase === "play" && view.to_move !== null && view.top === null) {
    center.appendChild(el("div", "lead-note", `${seatLabel(view, view.to_move, bottom, humans)} lead${seatLabel(view, view.to_move, bottom, humans) === "You" ? "" : "s"}`));
  }
  if (view.result) center.appendChild(resultBox(view, bottom, humans, opts));
  grid.appendChild(center);
  root.appendChild(grid);
}

// The deal's decisions, newest last, grouped by trick. onPick(step) for a
// click on a play or pass (to see it evaluated).
export function renderLog(list, view, bottom, humans, onPick) {
  list.replaceChildren();
  let trick = -1;
  view.log.forEach(([seat, action, t], step) => {
    if (t !== trick) {
      trick = t;
      list.appendChild(el("li", "log-trick", t === 0 ? "Tribute" : `Trick ${t}`));
    }
    const li = el("li", `log-item team-${seat % 2}`);
    li.appendChild(el("span", "who", seatLabel(view, seat, bottom, humans)));
    li.appendChild(actionEl(action, "micro"));
    if (onPick && (action.t === "play" || action.t === "pass")) {
      const why = el("button", "why", "why?");
      why.title = "Evaluate this decision from that seat's view";
      why.addEventListener("click", () => onPick(step));
      li.appendChild(why);
    }
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
}
