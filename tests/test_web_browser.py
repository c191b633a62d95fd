"""The web table in a real headless Chromium (the system's browser, driven by
Playwright): a whole deal played by clicking, a referee's decision, a
hint, a record stepped through to its last deal, and no resource from
outside the loopback nor any console error. The server runs on 127.0.0.1
on a free port, in a thread, and stops at the end of each test.

The screenshots of docs/web.md are taken here: they go to the test's
temporary folder, or to the folder named by ``GUANDAN_FAST_SCREENSHOTS``
(``GUANDAN_FAST_SCREENSHOTS=docs python -m pytest tests/test_web_browser.py``).
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest
from web_helpers import LiveMatch, platform_record, resisted_record, tribute_seed

uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

import guandan_fast as gf  # noqa: E402
from guandan_fast.web import create_app  # noqa: E402
from guandan_fast.web.app import Settings  # noqa: E402
from guandan_fast.web.serving import ServerThread, bind  # noqa: E402


def _chromium() -> str | None:
    given = os.environ.get("GUANDAN_FAST_CHROMIUM")
    if given:
        return given if Path(given).is_file() else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM = _chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium on this machine (apt-get install chromium, or GUANDAN_FAST_CHROMIUM=PATH); .ci/run installs it",
)
#: Seconds any one wait in the page may take.
WAIT_MS = 20_000


def _server(settings: Settings) -> ServerThread:
    """The web app under uvicorn in a thread, on 127.0.0.1 and a free port."""
    return ServerThread(create_app(settings), bind("127.0.0.1", 0))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


def _shots(tmp_path: Path) -> Path:
    folder = os.environ.get("GUANDAN_FAST_SCREENSHOTS")
    return Path(folder) if folder else tmp_path


class _Page:
    """A page of `browser` on `url`, watching what it loads and logs."""

    def __init__(self, browser: Any, url: str, viewport: tuple[int, int] = (1280, 800)) -> None:
        self.url = url
        self.context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT_MS)
        self.problems: list[str] = []
        self.outside: list[str] = []
        origin = url.rstrip("/")
        ws = origin.replace("http://", "ws://")
        self.page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))

        def request(r: Any) -> None:
            if not (r.url.startswith(origin + "/") or r.url.startswith(ws + "/") or r.url.startswith("data:")):
                self.outside.append(r.url)

        self.page.on("request", request)
        self.page.on("websocket", lambda w: request(w))

    def close(self) -> None:
        self.context.close()
        assert not self.outside, f"loaded from outside the loopback: {self.outside}"
        assert not self.problems, self.problems


def _click_card(page: Any, index: int) -> None:
    """Clicks a card of the hand where a person does: its visible top-left corner."""
    page.click(f".hand .card >> nth={index}", position={"x": 8, "y": 24})


def _move(page: Any) -> bool:
    """Makes the person's move once it is their turn: pass when they may, else
    click the lowest card and the play it makes. False once the deal is over."""
    page.wait_for_selector("#pass-btn, .result")
    if page.query_selector(".result"):
        return False
    logged = page.locator("#play-log .log-item").count()
    if page.locator("#pass-btn").is_enabled():
        page.click("#pass-btn")
    else:
        _click_card(page, 0)
        page.click(".play-btn")
    page.wait_for_function(f"() => document.querySelectorAll('#play-log .log-item').length > {logged} || !!document.querySelector('.result')")
    return True


def _open_record(page: Any, url: str, record: Path) -> None:
    """Opens the record file `record` in the Watch view of the server at `url`."""
    page.goto(url + "#watch")
    page.wait_for_selector("body[data-ready]", state="attached")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#watch-table .seat")


def _select_by_keys(page: Any, indices: list[int]) -> None:
    """Selects the hand's cards at `indices` with the keyboard: ← → move the focus, Space toggles."""
    for target in indices:
        focus = page.locator(".hand .card").evaluate_all("(cards) => cards.findIndex((c) => c.classList.contains('focus'))")
        for _ in range(abs(target - focus)):
            page.keyboard.press("ArrowRight" if target > focus else "ArrowLeft")
        page.keyboard.press(" ")


def test_play_a_whole_deal_by_clicking_then_pay_tribute(browser: Any, tmp_path: Path) -> None:
    seed, table = tribute_seed()
    phase = table.game.phase
    settings = Settings(bots={1: "greedy", 2: "greedy", 3: "greedy"}, seed=seed, delay=0, playouts=100)
    with _server(settings) as server:
        p = _Page(browser, server.url)
        page = p.page
        page.goto(server.url)
        page.wait_for_selector(".hand .card")
        assert page.locator(".seat-bottom .hand .card").count() == 27
        assert page.locator(".seat-top .back-stack .card").count() > 0  # the others' hands are face down
        moves = 0
        while moves < 200 and _move(page):  # the same moves as play_simply: the match of tribute_seed
            moves += 1
        page.wait_for_selector(".result")
        result = page.inner_text(".result")
        assert "Deal over" in result and "1st" in result and "4th" in result
        assert page.locator(".result .finish li").count() == 4
        assert moves > 0
        page.screenshot(path=str(_shots(tmp_path) / "web-result.png"))
        page.click("#next-deal")
        page.wait_for_function("() => !document.querySelector('.result')")
        prompt = page.wait_for_selector(".bar-main .prompt:has-text('进贡'), .bar-main .prompt:has-text('还贡')")
        assert ("进贡" in prompt.inner_text()) == (phase == "tribute")
        allowed = page.get_attribute(".allowed .card >> nth=0", "data-card")
        index = page.locator(".hand .card").evaluate_all(f"(cards) => cards.findIndex((c) => c.dataset.card === {allowed!r})")
        others = page.locator(".hand .card.dim").count()
        assert others > 0  # the cards that may not be given are dimmed
        _click_card(page, index)
        page.click(".play-btn")
        page.wait_for_selector("#play-log .log-trick:has-text('Tribute')")
        assert page.locator(".tribute-strip").count() == 1
        p.close()


def test_keys_select_cards_and_the_page_asks_which_declaration(browser: Any) -> None:
    # level 2 for seats 0 and 2; seats 1 and 3 at A with one failed attempt
    game = gf.Game(hands=["3c 4d 5s 6h 2h 9s 9d", "Ks Kd", "As Ac", "Qs Qd"], leader=0, levels=("2", "A"), declarer=0, a_fails=(0, 1))
    with _server(Settings(bots={1: "greedy", 2: "greedy", 3: "greedy"}, seed=1, delay=0)) as server:
        body = json.dumps({"position": game.position()}).encode()
        request = urllib.request.Request(server.url + "api/tables", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as r:
            tid = json.load(r)["id"]
        p = _Page(browser, server.url)
        page = p.page
        page.goto(f"{server.url}#play/{tid}")
        page.wait_for_selector("#pass-btn")
        cards = page.locator(".hand .card").evaluate_all("(cards) => cards.map((c) => c.dataset.card)")
        assert cards == [str(c) for c in game.hands[0].sorted("2")]  # sorted at the level: the wildcard last
        assert page.locator(".hand .card.wild").count() == 1
        levels = page.locator("#play-table .scoreboard .team-level").all_inner_texts()
        assert levels == ["2", "A"] and page.inner_text("#play-table .scoreboard .a-tries") == "A: 1 failed of 3"
        _select_by_keys(page, [cards.index(c) for c in ("3c", "4d", "5s", "6h", "2h")])
        page.wait_for_selector(".bar-main .ask")  # the same cards make two straights: the page asks which
        assert page.locator(".play-btn").count() == 2
        page.click(".play-btn:has-text('Straight 3')")
        page.wait_for_selector("#play-log .log-item")
        assert "Straight" in page.inner_text("#play-log .log-item >> nth=0")
        # the bots cannot beat it: seat 0 leads again, the pair by keys
        page.wait_for_function("() => document.querySelectorAll('.hand .card').length === 2 && !!document.querySelector('#pass-btn')")
        _select_by_keys(page, [0, 1])
        page.wait_for_selector(".play-btn:has-text('Pair 9')")
        page.keyboard.press("Enter")
        page.wait_for_selector(".seat-bottom .plate:has-text('1st'), .result")
        p.close()


def test_the_referee_dialog_gives_a_decision_and_the_table_shows_it(browser: Any) -> None:
    with _server(Settings(bots={1: "greedy", 2: "greedy", 3: "greedy"}, seed=2, delay=0)) as server:
        p = _Page(browser, server.url)
        page = p.page
        page.goto(server.url)
        page.wait_for_selector("#pass-btn")  # the person's turn: the deal cannot end without them
        assert page.is_hidden("#play-referee")  # no decision yet
        page.click("#referee")
        page.wait_for_selector("#referee-dialog[open]")
        assert page.locator("#referee-kinds input[name='referee-kind']").count() == 7
        assert "对方升一级" in page.inner_text("#referee-kinds label:has(input[value='opponents_up'])")
        page.select_option("#referee-team", "1")
        page.select_option("#referee-seat", "3")
        page.check("#referee-kinds input[value='opponents_up']")
        page.click("#referee-give")
        # the deal abandoned: the opponents of team 1 up one and declaring, shown as a deal's end
        page.wait_for_selector("#play-table .result .referee-note")
        assert "Referee, against Opponents (seat 3)" in page.inner_text("#play-table .result .referee-note")
        assert page.is_hidden("#referee-dialog")
        levels = page.locator("#play-table .scoreboard .team-level").all_inner_texts()
        assert levels == ["3", "2"] and page.locator("#play-table .scoreboard .team-0.declarer").count() == 1
        assert page.locator("#play-decisions .decision").count() == 1
        assert "对方升一级" in page.inner_text("#play-decisions .decision")
        page.click("#next-deal")  # the next deal follows as after any deal: at the declarers' level 3
        page.wait_for_function("() => !document.querySelector('#play-table .result')")
        page.wait_for_selector("#play-table .deal-info .playing:has-text('Playing 3')")
        assert page.locator("#play-decisions .decision").count() == 1  # the match's decisions stay listed
        p.close()


def test_a_hint_shows_its_progress_and_every_action(browser: Any, tmp_path: Path) -> None:
    settings = Settings(bots={1: "mc:100", 2: "mc:100", 3: "mc:100"}, seed=8, delay=0, playouts=400)
    with _server(settings) as server:
        p = _Page(browser, server.url)
        page = p.page
        page.goto(server.url)
        page.wait_for_selector("#pass-btn")
        for _ in range(6):  # a few moves in, so that the trick and the log have something
            assert _move(page), "the deal ended before the hint"
        page.wait_for_selector("#pass-btn")
        page.wait_for_selector("#play-hint-run:not([disabled])")
        page.keyboard.press("h")
        page.wait_for_selector("#play-hint .progress")
        page.wait_for_selector("#play-hint .hint-row")
        page.wait_for_function("() => document.querySelector('#play-hint .progress').getAttribute('aria-valuenow') === '100'")
        rows = page.locator("#play-hint .hint-row").count()
        assert rows >= 1
        meta = page.inner_text("#play-hint .hint-meta")
        assert "400/400 playouts each" in meta
        # a row selects its cards in the hand
        page.locator("#play-hint .hint-row .pickable").nth(min(rows - 1, 1)).click()
        page.wait_for_selector(".hand .card.selected, #pass-btn")
        page.screenshot(path=str(_shots(tmp_path) / "web-play.png"))
        p.close()


def test_open_a_record_and_step_to_the_last_deal(browser: Any, tmp_path: Path) -> None:
    record = tmp_path / "match.jsonl"
    record.write_text(platform_record(games=1, seed=4))
    with _server(Settings(bots={1: "greedy"}, seed=1, delay=0, playouts=100)) as server:
        p = _Page(browser, server.url)
        page = p.page
        _open_record(page, server.url, record)
        deals = page.locator(".tl-deal").count()
        assert deals >= 2
        for seat in range(4):  # every hand face up
            assert page.locator(f"#watch-table .seat[data-seat='{seat}'] .card:not(.back)").count() == 27
        for _ in range(30):
            page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelector('#tl-where').textContent.includes('step 30/')")
        page.keyboard.press("Shift+ArrowRight")
        page.wait_for_function("() => !document.querySelector('#tl-where').textContent.includes('step 30/')")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("h")
        page.wait_for_function("() => document.querySelector('#watch-hint .progress')?.getAttribute('aria-valuenow') === '100'")
        assert page.locator("#watch-hint .hint-row").count() >= 1
        page.screenshot(path=str(_shots(tmp_path) / "web-watch.png"))
        for _ in range(deals - 1):
            page.keyboard.press("PageDown")
            page.wait_for_timeout(50)
        page.wait_for_function(f"() => document.querySelector('#tl-where').textContent.includes('deal {deals} of {deals}')")
        page.keyboard.press("End")
        page.wait_for_selector("#watch-table .result")
        assert "Match over" in page.inner_text("#watch-table .result")
        assert page.locator(".tl-deal.current").count() == 1
        assert page.locator(".tl-deal").last.get_attribute("aria-selected") == "true"
        p.close()


def test_the_table_fits_a_phone_in_landscape(browser: Any) -> None:
    with _server(Settings(bots={1: "greedy", 2: "greedy", 3: "greedy"}, seed=3, delay=0)) as server:
        p = _Page(browser, server.url, viewport=(844, 390))
        page = p.page
        page.goto(server.url)
        page.wait_for_selector("#pass-btn")  # the person's turn: the table stays still
        box = page.locator(".seat-bottom .hand").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 844
        last = page.locator(".hand .card").last.bounding_box()
        assert last is not None and last["x"] + last["width"] <= 844 and last["y"] + last["height"] <= 390 + 1
        p.close()


def test_spectate_a_live_platform_table(browser: Any) -> None:
    from guandan_fast.web.live import LiveTables

    live = LiveTables()
    match = LiveMatch(live)
    match.step(5)
    with _server(Settings(live=live)) as server:
        p = _Page(browser, server.url)
        page = p.page
        page.goto(server.url + "#live")
        page.wait_for_selector("#live-table .seat")
        assert page.is_visible("#tab-live")
        for seat in range(4):
            assert page.locator(f"#live-table .seat[data-seat='{seat}'] .card:not(.back)").count() == len(match.ref.game.hands[seat])
        before = sum(match.ref.game.hand_sizes)
        match.step(12)  # the server's moves reach the page
        after = sum(match.ref.game.hand_sizes)
        assert after < before
        page.wait_for_function(f"() => document.querySelectorAll('#live-table .seat .card:not(.back)').length === {after}")
        p.close()


def test_a_resisted_tribute_in_a_record_and_play_from_there(browser: Any, tmp_path: Path) -> None:
    record = tmp_path / "resisted.txt"
    record.write_text(resisted_record())
    with _server(Settings(bots={1: "greedy", 2: "greedy", 3: "greedy"}, seed=1, delay=0)) as server:
        p = _Page(browser, server.url)
        page = p.page
        _open_record(page, server.url, record)
        page.keyboard.press("PageDown")  # the second deal: its payers hold both red jokers
        strip = page.wait_for_selector("#watch-table .tribute-strip:has-text('抗贡')")
        assert "both big jokers" in strip.inner_text()
        before = page.evaluate("() => location.hash")
        page.keyboard.press("ArrowRight")
        # The step is fetched before it is drawn: wait for it, or the seat read is the step before's.
        page.wait_for_function("(before) => location.hash !== before", arg=before)
        page.wait_for_selector("#watch-play:not([disabled])")
        to_move = page.locator("#watch-table .seat.active").get_attribute("data-seat")
        assert to_move is not None
        page.click("#watch-play")  # take that seat against the bots
        page.wait_for_function("() => location.hash.startsWith('#play/')")
        # The page opened on a table of its own (seat 0 at the bottom): wait for the new table's seat.
        page.wait_for_selector(f"#play-table .seat-bottom[data-seat='{to_move}'] .hand .card")
        p.close()
