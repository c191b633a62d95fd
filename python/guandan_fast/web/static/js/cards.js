// Cards and plays drawn with CSS and the page's SVG suit symbols. Only
// drawing: which cards are wildcards or level cards, and what a play is,
// comes from the server with each card.

const SUIT_NAMES = { h: "hearts", s: "spades", c: "clubs", d: "diamonds" };

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

export function rankText(r) {
  return r === "T" ? "10" : r;
}

function suitIcon(suit, cls) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", "#suit-" + suit);
  svg.appendChild(use);
  return svg;
}

export function cardName(card) {
  if (card.s === null) return card.r === "RJ" ? "big joker" : "small joker";
  return `${rankText(card.r)} of ${SUIT_NAMES[card.s]}`;
}

// One card face: {c, r, s, w (wildcard), l (level card)}; size "" | "mini".
export function cardEl(card, size = "") {
  const e = el("div", "card" + (size ? " " + size : ""));
  e.dataset.card = card.c;
  if (card.s === null) {
    e.classList.add("joker", card.r === "RJ" ? "red" : "black");
    e.appendChild(el("span", "joker-text", "JOKER"));
    const star = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    star.setAttribute("class", "joker-star");
    const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
    use.setAttribute("href", "#star");
    star.appendChild(use);
    e.appendChild(star);
    e.title = cardName(card);
    return e;
  }
  e.classList.add(card.s === "h" || card.s === "d" ? "red" : "black");
  if (card.l) e.classList.add("level");
  if (card.w) e.classList.add("wild");
  const corner = el("span", "corner");
  corner.appendChild(el("span", "rank", rankText(card.r)));
  corner.appendChild(suitIcon(card.s, "pip"));
  e.appendChild(corner);
  e.appendChild(suitIcon(card.s, "big-pip"));
  if (card.w) e.appendChild(el("span", "badge wild-badge", "WILD"));
  else if (card.l) e.appendChild(el("span", "badge level-badge", "LEVEL"));
  e.title = cardName(card) + (card.w ? " · wildcard (逢人配)" : card.l ? " · level card" : "");
  return e;
}

export function cardBack(size = "") {
  const e = el("div", "card back" + (size ? " " + size : ""));
  e.setAttribute("aria-hidden", "true");
  return e;
}

// A play: its label and cards, each standing wildcard with what it stands for.
export function actionEl(action, size = "mini") {
  const box = el("div", "play-view");
  if (action.t === "pass") {
    box.classList.add("pass");
    box.appendChild(el("span", "pass-text", "Pass"));
    return box;
  }
  if (action.t === "tribute" || action.t === "return") {
    box.appendChild(el("span", "play-label", action.t === "tribute" ? "Tribute" : "Return"));
    const row = el("div", "cards-row");
    row.appendChild(cardEl(action.card, size));
    box.appendChild(row);
    return box;
  }
  const row = el("div", "cards-row");
  for (const c of action.cards) row.appendChild(cardEl(c, size));
  for (const target of action.stands) {
    const w = cardEl(action.wild, size);
    w.appendChild(el("span", "stands", "=" + standsText(target)));
    row.appendChild(w);
  }
  box.appendChild(row);
  const label = el("span", "play-label" + (action.bomb ? " bomb" : ""), labelText(action));
  box.appendChild(label);
  return box;
}

function standsText(t) {
  // A rank ("7") or, in a straight flush, a card ("7s").
  if (t.length === 2 && "hscd".includes(t[1])) return rankText(t[0]) + { h: "♥", s: "♠", c: "♣", d: "♦" }[t[1]];
  return rankText(t);
}

export function labelText(action) {
  if (action.t === "pass") return "Pass";
  if (action.t !== "play") return action.text;
  const words = { FullHouse: "Full house", StraightFlush: "Straight flush", JokerBomb: "Joker bomb" };
  const kind = words[action.kind] || action.kind;
  const m = /\(([^)]*)\)/.exec(action.label);
  if (action.kind === "JokerBomb") return kind;
  if (action.kind === "Bomb") return `Bomb ${m ? m[1].replace("x", " × ").replace(/^T/, "10") : ""}`;
  return `${kind} ${m ? m[1].replace(/^T/, "10").replace(/[hscd]$/, (s) => ({ h: "♥", s: "♠", c: "♣", d: "♦" })[s]) : ""}`.trim();
}
