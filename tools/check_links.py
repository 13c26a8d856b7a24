"""Check the built HTML site's internal links without a browser.

``python3 tools/check_links.py [SITE]`` (default ``build/docs``) reads every ``.html``
page, collects the ``id`` (and ``name``) attributes it defines and every ``href`` and
``src`` it uses, and reports each link to a missing file or a missing ``#fragment``, one
line each; exit 1 if there is any. Links with a scheme (``https:``, ``mailto:``) are not
followed (the site makes none to the network). It prints the page and link counts.
``tools/check_site.py`` checks the same site in a real browser.
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name") and not (tag == "meta" and name == "name"):
                self.ids.add(value)
            if (name == "href" and tag in ("a", "link")) or (name == "src" and tag != "script"):
                self.links.append(value)


def read_site(site: Path) -> dict[Path, _Page]:
    """Every page of the site; files the theme ships under ``_static`` are not pages (the
    PyData theme copies its Jinja macros there as ``webpack-macros.html``)."""
    pages = {}
    for path in sorted(site.rglob("*.html")):
        if "_static" in path.relative_to(site).parts:
            continue
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path.resolve()] = page
    return pages


def broken_links(site: Path) -> tuple[int, int, list[str]]:
    """(pages, internal links checked, one line per broken link)."""
    pages = read_site(site)
    checked = 0
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                continue
            checked += 1
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            where = f"{path.relative_to(site.resolve())}: {link}"
            if not target.exists():
                broken.append(f"{where}: no file {unquote(parts.path)}")
                continue
            fragment = unquote(parts.fragment)
            if fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else set()
                if fragment not in ids:
                    broken.append(f"{where}: no anchor #{fragment}")
    return len(pages), checked, broken


def main(argv: list[str]) -> int:
    site = Path(argv[0]) if argv else Path("build") / "docs"
    if not (site / "index.html").is_file():
        print(f"check_links: {site}/index.html not found: build the site first (make docs)")
        return 2
    pages, checked, broken = broken_links(site)
    for line in broken:
        print(f"check_links: {line}")
    print(f"check_links: {pages} pages, {checked} internal links, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
