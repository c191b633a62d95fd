// The evaluator's panel: the engine's Monte Carlo estimate of every legal
// action, streamed while it runs (progress bar), best first.

import { actionEl, el, labelText } from "./cards.js";

function sameAction(a, b) {
  return !!a && !!b && a.t === b.t && a.text === b.text;
}

function fmt(x, digits = 2) {
  return (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(digits);
}

// hint: the last "hint" message (or null); who: text naming the seat evaluated.
// opts: onRun(playouts), onCancel(), onPick(action), playouts (default size), idle (text when none).
export function renderHint(panel, hint, opts) {
  panel.replaceChildren();
  const head = el("div", "hint-head");
  head.appendChild(el("h3", "", "Evaluator"));
  const sizes = el("select", "playouts");
  sizes.setAttribute("aria-label", "playouts per action");
  for (const n of [100, 400, 1600, 6400]) {
    const o = el("option", "", `${n} playouts`);
    o.value = String(n);
    if (n === (opts.playouts || 400)) o.selected = true;
    sizes.appendChild(o);
  }
  head.appendChild(sizes);
  const running = hint && !hint.done && !hint.cancelled;
  const btn = el("button", "btn" + (running ? " ghost" : " accent"), running ? "Stop" : "Hint");
  btn.id = panel.id + "-run";
  btn.title = running ? "Stop the evaluation" : "Evaluate every legal action (H)";
  btn.disabled = !running && !opts.available;
  btn.addEventListener("click", () => (running ? opts.onCancel() : opts.onRun(Number(sizes.value))));
  head.appendChild(btn);
  panel.appendChild(head);

  if (!hint || hint.cancelled) {
    panel.appendChild(el("p", "muted hint-idle", hint && hint.cancelled ? "Stopped." : opts.idle || ""));
    return;
  }
  const bar = el("div", "progress");
  bar.setAttribute("role", "progressbar");
  bar.setAttribute("aria-valuemin", "0");
  bar.setAttribute("aria-valuemax", "100");
  bar.setAttribute("aria-valuenow", String(Math.round(hint.progress * 100)));
  const fill = el("div", "fill");
  fill.style.width = `${Math.round(hint.progress * 100)}%`;
  bar.appendChild(fill);
  panel.appendChild(bar);
  const played = hint.played ? ` · played: ${labelText(hint.played)}` : "";
  panel.appendChild(el("p", "hint-meta muted",
    `${opts.who || "seat " + hint.seat} · ${hint.actions || 0} actions · ${Math.round(hint.progress * hint.playouts)}/${hint.playouts} playouts each${played}`));
  if (!hint.rows.length) {
    panel.appendChild(el("p", "muted", "Sampling the hidden hands…"));
    return;
  }
  const rows = hint.rows;
  const lo = Math.min(...rows.map((r) => r.low), -0.5);
  const hi = Math.max(...rows.map((r) => r.high), 0.5);
  const x = (v) => `${(((v - lo) / (hi - lo)) * 100).toFixed(1)}%`;
  const table = el("ol", "hint-rows");
  rows.slice(0, 30).forEach((r, i) => {
    const li = el("li", "hint-row" + (i === 0 ? " best" : "") + (sameAction(r.action, hint.played) ? " played" : ""));
    li.title = `mean level change ${fmt(r.mean, 3)} (95%: ${fmt(r.low, 2)} … ${fmt(r.high, 2)}), deal won ${(r.win * 100).toFixed(1)}%, ${r.playouts} playouts`;
    const act = actionEl(r.action, "micro");
    if (opts.onPick) {
      act.classList.add("pickable");
      act.addEventListener("click", () => opts.onPick(r.action));
    }
    li.appendChild(act);
    const gauge = el("div", "gauge");
    const zero = el("span", "zero");
    zero.style.left = x(0);
    const span = el("span", "ci");
    span.style.left = x(r.low);
    span.style.width = `calc(${x(r.high)} - ${x(r.low)})`;
    const dot = el("span", "dot");
    dot.style.left = x(r.mean);
    gauge.append(zero, span, dot);
    li.appendChild(gauge);
    li.appendChild(el("span", "mean", fmt(r.mean)));
    li.appendChild(el("span", "win", `${(r.win * 100).toFixed(0)}%`));
    table.appendChild(li);
  });
  panel.appendChild(table);
  if (rows.length > 30) panel.appendChild(el("p", "muted", `and ${rows.length - 30} more`));
  panel.appendChild(el("p", "muted legend", "mean: the mover's team's level change at the end of the deal; bar: 95% interval; %: deals won"));
}
