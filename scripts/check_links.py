#!/usr/bin/env python3
"""Check the links of the book and of README.md; exit 1 naming every broken one.

Two views are checked, as a reader meets them:

- the built book (`book/book/`, from `mdbook build book`): every relative `href`/`src`
  of every page resolves to a file, and every `#anchor` to an `id` (or `name`) in the
  page it points at;
- the Markdown sources as GitHub shows them (README.md and `book/src/**/*.md`): every
  relative link resolves to a file or directory of the repository, and an `#anchor`
  into a book page to one of that page's built ids.

Nothing may point outside the repository: an absolute URL (`http:`, `https:`, `//…`)
in a page's content or in the Markdown is an error. Standard library only.

Usage: python3 scripts/check_links.py [REPO_ROOT]
"""

import html.parser
import os
import re
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent).resolve()
BOOK = ROOT / "book"
BUILT = BOOK / "book"
SRC = BOOK / "src"

# Files mdBook writes besides the pages (its theme, search index, fonts), not checked for
# content links; their own asset links are still checked.
SCHEMES_OK = ("mailto:", "javascript:", "data:")


class Page(html.parser.HTMLParser):
    """The links and the ids of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links = []  # (attribute value, line)
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            if (name == "href" and tag in ("a", "link", "area")) or (
                name == "src" and tag in ("img", "script", "iframe", "source")
            ):
                self.links.append((value, self.getpos()[0]))


_pages = {}


def page(path):
    """Parsed page at `path` (cached)."""
    path = path.resolve()
    if path not in _pages:
        parser = Page()
        parser.feed(path.read_text(encoding="utf-8"))
        parser.close()
        _pages[path] = parser
    return _pages[path]


def is_external(url):
    return url.startswith("//") or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", url) is not None


def check_built(errors):
    if not (BUILT / "index.html").is_file():
        errors.append(f"{BUILT}/index.html: no built book (run `mdbook build book` first)")
        return
    for html_file in sorted(BUILT.rglob("*.html")):
        rel = html_file.relative_to(ROOT)
        # mdBook's 404 page uses links relative to the site root, not to its own place.
        if html_file.name == "404.html":
            continue
        for url, line in page(html_file).links:
            if url.startswith(SCHEMES_OK):
                continue
            if is_external(url):
                errors.append(f"{rel}:{line}: link out of the repository: {url}")
                continue
            parts = urlsplit(url)
            target = html_file if parts.path == "" else (html_file.parent / unquote(parts.path))
            target = Path(os.path.normpath(target))
            if not target.exists():
                errors.append(f"{rel}:{line}: broken link {url} (no {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target})")
                continue
            if parts.fragment:
                if target.is_dir() or target.suffix != ".html":
                    errors.append(f"{rel}:{line}: anchor into a file that is not a page: {url}")
                elif unquote(parts.fragment) not in page(target).ids:
                    errors.append(f"{rel}:{line}: broken anchor {url} (no id {unquote(parts.fragment)!r} in {target.relative_to(ROOT)})")


# [text](target "title") and ![alt](target), but not inside code spans or fenced blocks.
MD_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
MD_REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")


def markdown_links(text):
    """(target, line) of every link of a Markdown text, outside code."""
    in_fence = None
    for number, line in enumerate(text.splitlines(), 1):
        fence = re.match(r"^\s{0,3}(`{3,}|~{3,})", line)
        if fence:
            marker = fence.group(1)
            if in_fence is None:
                in_fence = marker[0] * 3
            elif marker.startswith(in_fence):
                in_fence = None
            continue
        if in_fence is not None:
            continue
        if line.lstrip().startswith("<!--"):
            continue
        # Drop code spans before looking for links.
        stripped = re.sub(r"(`+)(?:(?!\1).)*?\1", "", line)
        for match in MD_LINK.finditer(stripped):
            yield match.group(1), number
        ref = MD_REF_DEF.match(stripped)
        if ref:
            yield ref.group(1), number


def check_markdown(errors):
    sources = [ROOT / "README.md", ROOT / "ARCHITECTURE.md"] + sorted(SRC.rglob("*.md"))
    for md in sources:
        rel = md.relative_to(ROOT)
        text = md.read_text(encoding="utf-8")
        for url, line in markdown_links(text):
            if url.startswith(SCHEMES_OK):
                continue
            if is_external(url):
                errors.append(f"{rel}:{line}: link out of the repository: {url}")
                continue
            parts = urlsplit(url)
            target = md if parts.path == "" else Path(os.path.normpath(md.parent / unquote(parts.path)))
            if not target.is_relative_to(ROOT):
                errors.append(f"{rel}:{line}: link out of the repository: {url}")
                continue
            if not target.exists():
                errors.append(f"{rel}:{line}: broken link {url} (no {target.relative_to(ROOT)})")
                continue
            if parts.fragment and target.suffix == ".md":
                # A book page: its anchors are the ids mdBook gave it.
                try:
                    built = BUILT / target.relative_to(SRC).with_suffix(".html")
                except ValueError:
                    continue  # README.md, ARCHITECTURE.md: GitHub's own anchors, not checked
                if target.name == "SUMMARY.md" or not built.is_file():
                    errors.append(f"{rel}:{line}: anchor into a page that was not built: {url}")
                elif unquote(parts.fragment) not in page(built).ids:
                    errors.append(f"{rel}:{line}: broken anchor {url} (no id {unquote(parts.fragment)!r} in {built.relative_to(ROOT)})")


def check_summary(errors):
    """Every page under book/src is in SUMMARY.md (else mdBook leaves it out silently)."""
    summary = SRC / "SUMMARY.md"
    listed = {
        Path(os.path.normpath(SRC / url)) for url, _ in markdown_links(summary.read_text(encoding="utf-8"))
    }
    for md in sorted(SRC.rglob("*.md")):
        if md != summary and md not in listed:
            errors.append(f"{md.relative_to(ROOT)}: not in book/src/SUMMARY.md, so not in the book")


def main():
    errors = []
    check_built(errors)
    check_markdown(errors)
    check_summary(errors)
    pages = len(list(BUILT.rglob("*.html")))
    if errors:
        for e in errors:
            print(e)
        print(f"{len(errors)} broken link(s) in the book ({pages} pages) and README.md")
        return 1
    print(f"links checked: {pages} built pages and {len(list(SRC.rglob('*.md'))) + 2} Markdown files, none broken")
    return 0


if __name__ == "__main__":
    sys.exit(main())
