// The page: two views (Play, Watch) chosen by the address's #hash
// (#play/TABLE, #watch/RECORD/STEP), the status line, the keyboard.

import { api } from "./net.js";
import { LiveView } from "./live.js";
import { PlayView } from "./play.js";
import { WatchView } from "./watch.js";

class App {
  constructor() {
    this.config = null;
    this.current = null;
    this.statusTimer = null;
    this.quietHash = null;
  }

  async start() {
    try {
      this.config = await api("/api/config");
    } catch (e) {
      this.flash(`cannot reach the server: ${e.message}`, true);
      return;
    }
    this.play = new PlayView(this);
    this.watch = new WatchView(this);
    this.live = new LiveView(this);
    document.getElementById("tab-live").hidden = !this.config.live;
    for (const tab of document.querySelectorAll(".tab")) {
      tab.addEventListener("click", () => this.open(tab.dataset.view));
    }
    window.addEventListener("hashchange", () => {
      if (location.hash !== this.quietHash) this.route();
    });
    document.addEventListener("keydown", (e) => this.onKey(e));
    await this.route();
    document.body.dataset.ready = "1";
  }

  setHash(hash) {
    this.quietHash = "#" + hash;
    if (location.hash !== this.quietHash) history.replaceState(null, "", this.quietHash);
  }

  async open(name) {
    if (name === "play") await this.showView("play", this.play.tid);
    else if (name === "live") await this.showView("live", this.live.table);
    else await this.showView("watch", this.watch.rid, this.watch.rid ? this.watch.step : undefined);
  }

  async route() {
    const [name, id, step] = location.hash.replace(/^#/, "").split("/");
    if (name === "watch") await this.showView("watch", id, step === undefined ? undefined : Number(step));
    else if (name === "live" && this.config.live) await this.showView("live", id === undefined ? undefined : Number(id));
    else await this.showView("play", id);
  }

  async showView(name, id, step) {
    this.current = name;
    for (const v of ["play", "watch", "live"]) {
      document.getElementById(`view-${v}`).hidden = v !== name;
      const tab = document.getElementById(`tab-${v}`);
      tab.classList.toggle("active", v === name);
      tab.setAttribute("aria-selected", v === name ? "true" : "false");
    }
    if (name !== "live") this.live.hide();
    if (name === "play") await this.play.show(id);
    else if (name === "live") await this.live.show(id);
    else {
      if (!id) this.setHash("watch");
      await this.watch.show(id, step);
    }
  }

  onKey(e) {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (document.querySelector("dialog[open]")) return;
    const view = this.current === "play" ? this.play : this.current === "watch" ? this.watch : null;
    if (view && view.key(e)) e.preventDefault();
  }

  flash(text, isError = false) {
    const s = document.getElementById("status");
    s.textContent = text;
    s.classList.toggle("error", isError);
    clearTimeout(this.statusTimer);
    this.statusTimer = setTimeout(() => {
      s.textContent = "";
      s.classList.remove("error");
    }, isError ? 8000 : 4000);
  }
}

new App().start();
