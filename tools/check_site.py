"""Check the built documentation site in headless Chromium, at a phone's width and a desktop's.

``python3 tools/check_site.py [SITE]`` (default ``build/docs``; ``make site-check``
installs Debian's ``chromium`` and the ``site`` extra first) serves the site over HTTP
on the loopback address, as a reader's browser would get it (the search page fetches
its snippets, which a ``file:`` page may not), and drives Debian's Chromium through
Playwright (never ``playwright install``: the browser is the system's). Starting at
``index.html`` it opens every page the site links to and checks:

- at the desktop width: the page rendered (a title, a main heading, a stylesheet), every
  image loaded, every internal link points to a page that exists and, for
  ``#fragment`` links, to an element with that id; every SVG picture, opened on its own,
  renders with a real size and draws nothing outside its frame (a board picture draws
  at least :data:`MIN_CITIES` cities);
- at both widths (:data:`VIEWPORTS`): nothing makes the page wider than the screen
  (no sideways scrolling), no picture is cut off by the screen's edge or a container,
  and on the phone the page's own heading is on the first screen (content first, the
  navigation behind a button);
- the searches of :data:`SEARCHES` find a player's page first and the expected page
  among the first three, with real titles and a snippet of text.

It keeps screenshots of :data:`KEY_PAGES` at both widths in ``SITE/_screenshots/``
(``questions-phone.png`` ...), prints one line per problem, then the widest page and
the lowest main heading at the phone's width, the top results of each search, and the
counts; exit 1 on any problem, 2 if the browser cannot be started.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote, unquote, urlsplit

FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Chromium's flags besides ``--headless`` (Playwright adds it): no sandbox (the checks
run as root in CI), no GPU, no network beyond the site."""


class Viewport(NamedTuple):
    """A screen the pages are rendered on."""

    width: int
    height: int
    mobile: bool
    """Phone emulation: the page's ``viewport`` meta tag is honoured, touch is on."""


VIEWPORTS = {
    "phone": Viewport(400, 860, mobile=True),
    "desktop": Viewport(1280, 900, mobile=False),
}
"""The widths every page is checked at."""

KEY_PAGES = {
    "questions": ("rules/questions.html", ""),
    "rules": ("rules/rules.html", ""),
    "rule-page": ("_generated/rules/withdraw.html", ""),
    "board": ("_generated/components.html", "img.board"),
}
"""The pages kept as screenshots at every width (name: page, and the element to scroll
to first, if not the top)."""

PLAYER_PAGES = ("rules/", "_generated/rules/", "_generated/rulings/", "_generated/components")
"""Where the players' pages live (the start of their path in the site)."""

SEARCHES = {
    "monk tie": "rules/questions.html",
    "draw pile empty": "rules/questions.html",
    "crown next to my own palace": "rules/questions.html",
}
"""Player words and the page that answers them: it must be among the first three
results, and the first result must be a player's page."""

MIN_CITIES = 36
"""A board picture draws at least this many cities (the board has 49, the rulebook's
palace-connection figure 36)."""

BOARD_PICTURES = ("board.svg", "visit-", "palace-connections.svg")
"""Pictures that show a board (by the start of their file name)."""

PAGE_TIMEOUT = 20.0
"""Seconds a page (or a search) may take."""

INSPECT = r"""
(() => {
  const images = Array.from(document.images).map(img => ({
    src: img.getAttribute('src'), url: img.src,
    loaded: img.complete && img.naturalWidth > 0}));
  const links = Array.from(document.querySelectorAll('a[href]')).map(a => a.href);
  const ids = Array.from(document.querySelectorAll('[id]')).map(e => e.id);
  const main = document.querySelector('main h1, [role=main] h1, article h1, h1');
  return {title: document.title, heading: main ? main.textContent : '',
          images, links, ids, sheets: document.styleSheets.length,
          text: document.body ? document.body.innerText.length : 0};
})()
"""
"""Run in a page at the desktop width: what it shows and where it links."""

MEASURE = r"""
(width) => {
  const describe = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
    + (typeof e.className === 'string' && e.className.trim()
       ? '.' + e.className.trim().split(/\s+/).slice(0, 2).join('.') : '');
  const clips = e => {
    const style = getComputedStyle(e);
    return style.overflowX !== 'visible' || style.display === 'none';
  };
  const visible = e => {
    const box = e.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  };
  let widest = null;
  let right = width;
  // Elements that reach past the screen's right edge, outside any scrolling box.
  const walk = (e) => {
    for (const child of e.children) {
      const style = getComputedStyle(child);
      if (style.display === 'none' || style.position === 'fixed') continue;
      const box = child.getBoundingClientRect();
      if (box.right > right + 1 && visible(child)) { right = box.right; widest = child; }
      if (!clips(child)) walk(child);
    }
  };
  walk(document.body);
  const pictures = [];
  for (const picture of document.querySelectorAll('img, svg')) {
    if (!visible(picture) || picture.closest('svg') !== picture && picture.tagName !== 'IMG')
      continue;
    const box = picture.getBoundingClientRect();
    let cut = box.left < -1 || box.right > width + 1;
    for (let up = picture.parentElement; up && !cut; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === 'hidden' || style.overflowX === 'clip') {
        const frame = up.getBoundingClientRect();
        cut = box.left < frame.left - 1 || box.right > frame.right + 1;
      }
    }
    if (cut) pictures.push(picture.getAttribute('src') || describe(picture));
  }
  const heading = document.querySelector('main h1, [role=main] h1, article h1, h1');
  return {
    scroll: document.documentElement.scrollWidth,
    widest: widest ? describe(widest) : '',
    clipped: pictures,
    heading: heading ? heading.getBoundingClientRect().top + window.scrollY : -1,
  };
}
"""
"""Run in a page at each width: how wide it is, which pictures are cut off, where its
heading starts."""

SVG_CHECK = r"""
(() => {
  const root = document.documentElement;
  const box = root.getBBox ? root.getBBox() : {x: 0, y: 0, width: 0, height: 0};
  const view = root.viewBox && root.viewBox.baseVal && root.viewBox.baseVal.width
    ? root.viewBox.baseVal
    : {x: 0, y: 0, width: root.width.baseVal.value, height: root.height.baseVal.value};
  return {tag: root.tagName, cities: document.querySelectorAll('circle, rect').length,
          width: box.width, height: box.height,
          outside: box.x < view.x - 1 || box.y < view.y - 1
            || box.x + box.width > view.x + view.width + 1
            || box.y + box.height > view.y + view.height + 1};
})()
"""
"""Run in an SVG picture opened on its own: what the browser drew, and whether any of it
lies outside the picture's frame (where it would be cut off)."""

RESULTS = r"""
(() => Array.from(document.querySelectorAll('#search-results ul.search li')).slice(0, 5)
  .map(li => {
    const link = li.querySelector('a');
    const snippet = li.querySelector('p.context');
    return {title: link.textContent, href: link.getAttribute('href'),
            snippet: snippet ? snippet.textContent.trim() : ''};
  }))()
"""
"""Run on the search page once the search has finished: the first results."""


class Report(NamedTuple):
    """What a check found."""

    opened: int
    """Pages and pictures opened."""
    problems: list[str]
    widest: dict[str, tuple[int, str]]
    """Per viewport name: the widest page's width in pixels, and the page."""
    lowest_heading: tuple[int, str]
    """At the phone's width: the largest distance of a page's heading from the top."""
    searches: dict[str, list[dict[str, str]]]
    """Per query: the first results (title, page, snippet)."""
    slowest: float


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve(site: Path) -> Iterator[str]:
    """Serve ``site`` on a free loopback port; yields the base URL (ending with ``/``)."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _page_name(url: str, base: str) -> str:
    """The page's path within the site (``rules/questions.html``), without its fragment."""
    return unquote(urlsplit(url).path).removeprefix(urlsplit(base).path)


def _crawl(page: Any, site: Path, base: str, problems: list[str]) -> tuple[list[str], float]:
    """Open every linked page at the desktop width; (pages in order, slowest load)."""
    queue = ["index.html"]
    seen = {"index.html"}
    ids: dict[str, set[str]] = {}
    wanted: list[tuple[str, str, str]] = []
    pictures: dict[str, str] = {}
    slowest = 0.0
    for name in queue:
        began = time.monotonic()
        page.goto(base + quote(name), wait_until="load")
        slowest = max(slowest, time.monotonic() - began)
        found = page.evaluate(INSPECT)
        ids[name] = set(found["ids"])
        if not found["title"] or not found["heading"] or found["text"] < 20:
            problems.append(f"{name}: did not render (no title, heading or text)")
        if found["sheets"] == 0:
            problems.append(f"{name}: no stylesheet loaded")
        for image in found["images"]:
            if not image["loaded"]:
                problems.append(f"{name}: image {image['src']} did not load")
            elif str(image["src"]).endswith(".svg"):
                pictures.setdefault(_page_name(image["url"], base), name)
        for link in found["links"]:
            if not link.startswith(base):
                continue
            target = _page_name(link, base) or "index.html"
            if not (site / target).exists():
                problems.append(f"{name}: link to missing {target}")
                continue
            if not target.endswith(".html") or target == "search.html":
                continue
            fragment = unquote(urlsplit(link).fragment)
            if fragment:
                wanted.append((name, target, fragment))
            if target not in seen:
                seen.add(target)
                queue.append(target)
    for picture, name in pictures.items():
        page.goto(base + quote(picture), wait_until="load")
        drawn = page.evaluate(SVG_CHECK)
        board = Path(picture).name.startswith(BOARD_PICTURES)
        if drawn["tag"] != "svg" or drawn["width"] < 100:
            problems.append(f"{name}: picture {picture} did not render")
        elif board and drawn["cities"] < MIN_CITIES:
            problems.append(f"{name}: picture {picture} does not show a board")
        elif drawn["outside"]:
            problems.append(f"{name}: picture {picture} draws outside its frame (cut off)")
    for name, target, fragment in wanted:
        if fragment not in ids.get(target, set()):
            problems.append(f"{name}: link to {target}#{fragment}: no such anchor")
    return queue + list(pictures), slowest


def _search(page: Any, base: str, query: str) -> list[dict[str, str]]:
    """The first results of the site's own search page for ``query``."""
    page.goto(base + "search.html?q=" + quote(query), wait_until="load")
    page.wait_for_function(
        "() => { const s = document.querySelector('#search-results p.search-summary');"
        " return s && s.innerText.length > 0; }",
        timeout=PAGE_TIMEOUT * 1000,
    )
    # Snippets are fetched page by page after the list is drawn; give them a moment.
    with contextlib.suppress(Exception):
        page.wait_for_function(
            "() => { const items = document.querySelectorAll('#search-results ul.search li');"
            " return items.length === 0 || Array.from(items).slice(0, 3)"
            ".every(li => li.querySelector('p.context') || li.querySelector('span')); }",
            timeout=5000,
        )
    results: list[dict[str, str]] = page.evaluate(RESULTS)
    for result in results:
        result["page"] = result.pop("href").split("#", 1)[0]
    return results


def check_site(
    site: Path,
    binary: str,
    *,
    searches: dict[str, str] | None = None,
    screenshots: bool = True,
) -> Report:
    """Open the site in Chromium and check it (see the module docstring).

    ``searches`` maps a query to the page it must find (default :data:`SEARCHES`; an
    empty mapping checks no search, for a site without a search page).
    """
    from playwright.sync_api import sync_playwright

    site = site.resolve()
    problems: list[str] = []
    widest: dict[str, tuple[int, str]] = {}
    lowest = (0, "")
    found_searches: dict[str, list[dict[str, str]]] = {}
    shots = site / "_screenshots"
    if screenshots:
        shutil.rmtree(shots, ignore_errors=True)
        shots.mkdir()
    with serve(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=binary, args=list(FLAGS))
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.set_default_timeout(PAGE_TIMEOUT * 1000)
            page = context.new_page()
            visited, slowest = _crawl(page, site, base, problems)
            pages = [name for name in visited if name.endswith(".html")]
            context.close()
            for label, screen in VIEWPORTS.items():
                context = browser.new_context(
                    viewport={"width": screen.width, "height": screen.height},
                    is_mobile=screen.mobile,
                    has_touch=screen.mobile,
                )
                context.set_default_timeout(PAGE_TIMEOUT * 1000)
                page = context.new_page()
                widest[label] = (0, "")
                for name in pages:
                    page.goto(base + quote(name), wait_until="load")
                    found = page.evaluate(MEASURE, screen.width)
                    where = f"{name} at {screen.width} px"
                    widest[label] = max(widest[label], (found["scroll"], name))
                    if found["scroll"] > screen.width + 1:
                        problems.append(
                            f"{where}: the page is {found['scroll']} px wide "
                            f"(widest: {found['widest'] or 'the page itself'})"
                        )
                    for picture in found["clipped"]:
                        problems.append(f"{where}: picture {picture} is cut off")
                    if screen.mobile:
                        lowest = max(lowest, (round(found["heading"]), name))
                        if found["heading"] > screen.height:
                            problems.append(
                                f"{where}: the heading starts {found['heading']:.0f} px down, "
                                "below the first screen"
                            )
                for key, (name, element) in KEY_PAGES.items():
                    if screenshots and (site / name).exists():
                        page.goto(base + quote(name), wait_until="load")
                        if element:
                            page.locator(element).first.scroll_into_view_if_needed()
                        page.screenshot(path=str(shots / f"{key}-{label}.png"))
                context.close()
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.set_default_timeout(PAGE_TIMEOUT * 1000)
            page = context.new_page()
            for query, expected in (SEARCHES if searches is None else searches).items():
                results = _search(page, base, query)
                found_searches[query] = results
                top = [result["page"] for result in results[:3]]
                if not results or not results[0]["page"].startswith(PLAYER_PAGES):
                    problems.append(f"search {query!r}: the first result is not a player's page")
                if expected not in top:
                    problems.append(f"search {query!r}: {expected} is not among the first three")
                if results and not results[0]["snippet"]:
                    problems.append(f"search {query!r}: the first result has no snippet")
            context.close()
        finally:
            browser.close()
    return Report(len(visited), problems, widest, lowest, found_searches, slowest)


def main(argv: list[str]) -> int:
    site = Path(argv[0]) if argv else Path("build") / "docs"
    if not (site / "index.html").is_file():
        print(f"check_site: {site}/index.html not found: build the site first (make docs)")
        return 2
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        print("check_site: chromium not found (make site-check installs it with apt-get)")
        return 2
    try:
        import playwright  # noqa: F401
    except ImportError:
        print("check_site: playwright is not installed (pip install -e '.[site]')")
        return 2
    began = time.monotonic()
    try:
        report = check_site(site, binary)
    except Exception as error:  # Playwright's errors: the browser did not start or answer
        print(f"check_site: the browser failed: {type(error).__name__}: {error}")
        return 2
    for line in report.problems:
        print(f"check_site: {line}")
    for label, (width, name) in report.widest.items():
        screen = VIEWPORTS[label].width
        widest = f"{name} ({width} px)" if width > screen else f"{width} px: every page fits"
        print(f"check_site: widest page at the {label}'s width ({screen} px): {widest}")
    height, name = report.lowest_heading
    print(f"check_site: lowest main heading at the phone's width: {name} ({height} px down)")
    for query, results in report.searches.items():
        print(f"check_site: search {query!r}:")
        for number, result in enumerate(results[:3], start=1):
            snippet = " ".join(result["snippet"].split())
            print(f"check_site:   {number}. {result['title']} ({result['page']}): {snippet}")
    print(f"check_site: screenshots of the key pages in {site / '_screenshots'}")
    print(
        f"check_site: {report.opened} pages and pictures opened in Chromium in "
        f"{time.monotonic() - began:.1f} s (slowest {report.slowest:.2f} s), "
        f"{len(report.problems)} problems"
    )
    return 1 if report.problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
