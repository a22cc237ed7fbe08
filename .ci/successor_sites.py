"""Compare a site built by one of MkDocs' successors with the MkDocs build of the same content.

    python .ci/successor_sites.py compare SITE OTHER [--canary]
        the pages (HTML files), the anchors (``id`` attributes) of each page, and the other files
        (figures, notebooks, the build report) of OTHER against SITE. Exit status 1 when they
        differ, unless ``--canary``: then the differences are printed and the status is 0.
    python .ci/successor_sites.py zensical-config CONFIG OUT SITE_DIR
        CONFIG (mkdocs.yml) for Zensical, written to OUT beside it and building into SITE_DIR:
        Zensical rejects MkDocs' ``!relative`` YAML tag, so it becomes ``.``, the config's folder.

ProperDocs (a MkDocs 1.x fork) must build the same site, so its job fails on a difference;
Zensical runs no MkDocs plugins, so its job reports what it loses and never fails CI.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

# Written by each generator in its own way, not part of the content.
GENERATOR_FILES = re.compile(
    r"^(sitemap\.xml(\.gz)?|search/.*|assets/(javascripts|stylesheets)/.*|objects\.inv)$"
)
SHOWN = 20  # differences listed per kind; the count says how many in all


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.update(value for name, value in attrs if name == "id" and value)


def anchors(page: Path) -> set[str]:
    parser = _Ids()
    parser.feed(page.read_text(encoding="utf-8", errors="replace"))
    return parser.ids


def files(site: Path) -> set[str]:
    found = {path.relative_to(site).as_posix() for path in site.rglob("*") if path.is_file()}
    return {name for name in found if not GENERATOR_FILES.match(name)}


def differences(site: Path, other: Path) -> list[str]:
    """One line per difference, OTHER measured against SITE."""
    ours, theirs = files(site), files(other)
    pages = {name for name in ours if name.endswith(".html")}
    other_pages = {name for name in theirs if name.endswith(".html")}
    lines = [f"pages: {len(pages)} in {site}, {len(other_pages)} in {other}"]
    lines += _listed("page missing", sorted(pages - other_pages))
    lines += _listed("page added", sorted(other_pages - pages))
    lost_anchors: list[str] = []
    added_anchors: list[str] = []
    for page in sorted(pages & other_pages):
        mine, yours = anchors(site / page), anchors(other / page)
        lost_anchors += [f"{page}#{anchor}" for anchor in sorted(mine - yours)]
        added_anchors += [f"{page}#{anchor}" for anchor in sorted(yours - mine)]
    lines += _listed("anchor missing", lost_anchors)
    lines += _listed("anchor added", added_anchors)
    rest, other_rest = ours - pages, theirs - other_pages
    lines += _listed("file missing", sorted(rest - other_rest))
    lines += _listed("file added", sorted(other_rest - rest))
    return lines


def _listed(kind: str, items: list[str]) -> list[str]:
    if not items:
        return []
    shown = [f"  {kind}: {item}" for item in items[:SHOWN]]
    more = [f"  ... and {len(items) - SHOWN} more"] if len(items) > SHOWN else []
    return [f"{kind}: {len(items)}", *shown, *more]


def zensical_config(config: Path, out: Path, site_dir: Path) -> None:
    """OUT must lie in CONFIG's folder: Zensical wants the docs inside the config's own folder."""
    root = config.parent.resolve()
    if out.resolve().parent != root:
        raise SystemExit(f"{out}: write the Zensical config beside {config}")
    text = config.read_text(encoding="utf-8")
    text = re.sub(r"!relative\s+\$config_dir\b", ".", text)
    text = re.sub(r"(?m)^site_dir:.*\n", "", text)
    site = os.path.relpath(site_dir.resolve(), root)
    out.write_text(text + f"\nsite_dir: {site}\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    compare = commands.add_parser("compare")
    compare.add_argument("site", type=Path)
    compare.add_argument("other", type=Path)
    compare.add_argument("--canary", action="store_true", help="print the differences, exit 0")
    derive = commands.add_parser("zensical-config")
    derive.add_argument("config", type=Path)
    derive.add_argument("out", type=Path)
    derive.add_argument("site_dir", type=Path)
    args = parser.parse_args(argv)
    if args.command == "zensical-config":
        zensical_config(args.config, args.out, args.site_dir)
        return 0
    for folder in (args.site, args.other):
        if not (folder / "index.html").is_file():
            print(f"{folder}: no built site (index.html missing)", file=sys.stderr)
            return 0 if args.canary else 2
    lines = differences(args.site, args.other)
    print("\n".join(lines))
    same = len(lines) == 1
    print("the same pages, anchors and files" if same else f"{len(lines) - 1} lines of differences")
    return 0 if args.canary or same else 1


if __name__ == "__main__":
    sys.exit(main())
