"""Check the built documentation site in a real headless browser (Chromium).

``python3 tools/check_site.py [SITE]`` (default ``build/docs``; ``make site-check``
installs Debian's ``chromium`` first if it is missing) starts Chromium headless with a
fresh profile and no network, and drives it over the DevTools protocol on a pipe (file
descriptors 3 and 4, so no extra library is needed). Starting at ``index.html`` it opens
every page the site links to and, in each, asks the browser:

- did the page load and render (a title, a main heading, no stylesheet missing);
- did every image load (``naturalWidth > 0``); every SVG picture is then opened on its
  own and must render as SVG with its cities drawn and a real size;
- does every internal link point to a page that exists and, for ``#fragment`` links, to
  an element with that id once the target page is rendered.

It prints one line per problem, then the counts and how long the slowest page took;
exit 1 on any problem, 2 if Chromium cannot be started.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-pipe",
)
"""Chromium's flags: headless, no network beyond the files, commands on a pipe."""

MIN_CITIES = 36
"""A picture shows a board when it draws at least this many cities (the board has 49, the
rulebook's palace-connection figure 36)."""

PAGE_TIMEOUT = 20.0
"""Seconds a page may take to load."""

INSPECT = r"""
(() => {
  const images = Array.from(document.images).map(img => ({
    src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0,
    width: img.naturalWidth}));
  const links = Array.from(document.querySelectorAll('a[href]'))
    .map(a => a.href).filter(h => h.startsWith('file:'));
  const ids = Array.from(document.querySelectorAll('[id]')).map(e => e.id);
  const sheets = Array.from(document.styleSheets).length;
  const heading = document.querySelector('h1');
  return {title: document.title, heading: heading ? heading.textContent : '',
          images, links, ids, sheets, text: document.body ? document.body.innerText.length : 0};
})()
"""

SVG_CHECK = r"""
(() => {
  const root = document.documentElement;
  const box = root.getBBox ? root.getBBox() : {width: 0, height: 0};
  return {tag: root.tagName, cities: document.querySelectorAll('circle, rect').length,
          width: box.width, height: box.height};
})()
"""
"""Run in an SVG picture opened on its own: what the browser drew."""


class Browser:
    """One Chromium process driven over the DevTools pipe."""

    def __init__(self, binary: str, profile: str) -> None:
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()

        def wire() -> None:
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        self.process = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # The descriptors are moved to 3 and 4 before the exec; keep those open too.
            pass_fds=sorted({3, 4, to_browser_read, from_browser_write}),
            preexec_fn=wire,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from the browser")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise ConnectionError("the browser closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        decoded: dict[str, Any] = json.loads(message)
        return decoded

    def send(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        self._next += 1
        command: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session is not None:
            command["sessionId"] = session
        os.write(self._to_browser, json.dumps(command).encode() + b"\0")
        deadline = time.monotonic() + PAGE_TIMEOUT
        while True:
            message = self._read_message(deadline)
            if message.get("id") == self._next:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error'].get('message')}")
                result: dict[str, Any] = message.get("result", {})
                return result
            self.events.append(message)

    def wait_for(self, method: str, session: str) -> None:
        deadline = time.monotonic() + PAGE_TIMEOUT
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    del self.events[: index + 1]
                    return
            self.events.clear()
            self.events.append(self._read_message(deadline))

    def close(self) -> None:
        with contextlib.suppress(OSError, ConnectionError, TimeoutError, RuntimeError):
            self.send("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)


def _file(url: str) -> tuple[Path, str]:
    parts = urlsplit(url)
    return Path(unquote(parts.path)), unquote(parts.fragment)


def check_site(site: Path, binary: str) -> tuple[int, list[str], float]:
    """(pages opened, problems, slowest page in seconds)."""
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="tajmahal-chromium-") as profile:
        browser = Browser(binary, profile)
        try:
            target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})[
                "sessionId"
            ]
            browser.send("Page.enable", session=session)
            browser.send("Runtime.enable", session=session)
            start = (site / "index.html").resolve()
            queue = [start]
            seen = {start}
            ids: dict[Path, set[str]] = {}
            wanted: list[tuple[Path, Path, str]] = []
            pictures: dict[Path, str] = {}
            slowest = 0.0
            while queue:
                page = queue.pop(0)
                name = page.relative_to(site.resolve()).as_posix()
                began = time.monotonic()
                browser.send("Page.navigate", {"url": page.as_uri()}, session=session)
                browser.wait_for("Page.loadEventFired", session)
                slowest = max(slowest, time.monotonic() - began)
                found = browser.send(
                    "Runtime.evaluate",
                    {"expression": INSPECT, "returnByValue": True},
                    session=session,
                )["result"]["value"]
                ids[page] = set(found["ids"])
                if not found["title"] or not found["heading"] or found["text"] < 20:
                    problems.append(f"{name}: did not render (no title, heading or text)")
                if found["sheets"] == 0:
                    problems.append(f"{name}: no stylesheet loaded")
                for image in found["images"]:
                    if not image["loaded"]:
                        problems.append(f"{name}: image {image['src']} did not load")
                for image in found["images"]:
                    if str(image["src"]).endswith(".svg"):
                        pictures.setdefault((page.parent / image["src"]).resolve(), name)
                for link in found["links"]:
                    path, fragment = _file(link)
                    if not path.exists():
                        problems.append(f"{name}: link to missing {path.name}")
                        continue
                    if path.suffix != ".html":
                        continue
                    if fragment:
                        wanted.append((page, path, fragment))
                    if path not in seen and site.resolve() in path.parents:
                        seen.add(path)
                        queue.append(path)
            for picture, name in pictures.items():
                browser.send("Page.navigate", {"url": picture.as_uri()}, session=session)
                browser.wait_for("Page.loadEventFired", session)
                drawn = browser.send(
                    "Runtime.evaluate",
                    {"expression": SVG_CHECK, "returnByValue": True},
                    session=session,
                )["result"]["value"]
                if drawn["tag"] != "svg" or drawn["cities"] < MIN_CITIES or drawn["width"] < 100:
                    problems.append(f"{name}: picture {picture.name} does not show a board")
            for page, path, fragment in wanted:
                if fragment not in ids.get(path, set()):
                    name = page.relative_to(site.resolve()).as_posix()
                    problems.append(f"{name}: link to {path.name}#{fragment}: no such anchor")
        finally:
            browser.close()
    return len(seen) + len(pictures), problems, slowest


def main(argv: list[str]) -> int:
    site = Path(argv[0]) if argv else Path("build") / "docs"
    if not (site / "index.html").is_file():
        print(f"check_site: {site}/index.html not found: build the site first (make docs)")
        return 2
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary is None:
        print("check_site: chromium not found (make site-check installs it with apt-get)")
        return 2
    began = time.monotonic()
    try:
        pages, problems, slowest = check_site(site, binary)
    except (OSError, ConnectionError, TimeoutError, RuntimeError) as error:
        print(f"check_site: the browser failed: {error}")
        return 2
    for line in problems:
        print(f"check_site: {line}")
    print(
        f"check_site: {pages} pages and pictures opened in Chromium in "
        f"{time.monotonic() - began:.1f} s "
        f"(slowest {slowest:.2f} s), {len(problems)} problems"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
