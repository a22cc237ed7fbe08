"""``docexec run [PATH...]``: run snippets (all when none is given) and print their results.
``docexec new PAGE --title ... --snippet ...``: a new page with its first snippet (`docexec.scaffold`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from docexec import scaffold
from docexec.engine import DeclarationError, Engine, find_root
from docexec.result import FAILED, SKIPPED, Result


def _relative(path: str, root: Path) -> list[str]:
    target = Path(path).resolve()
    if not target.exists():
        raise FileNotFoundError(f"{path}: no such snippet")
    if not target.is_relative_to(root):
        raise FileNotFoundError(f"{path}: not inside the project at {root}")
    files = sorted(target.rglob("*.py")) if target.is_dir() else [target]
    return [file.relative_to(root).as_posix() for file in files]


def _print_result(outcome: Result) -> None:
    origin = "cached" if outcome.cached else f"{outcome.duration:.2f} s"
    if outcome.status == SKIPPED:
        print(f"SKIP {outcome.path}: {outcome.failure}")
        return
    label = "FAIL" if outcome.status == FAILED else "PASS"
    print(f"{label} {outcome.path} ({origin})")
    body = outcome.output + outcome.truncation_note
    if outcome.expected_exception and outcome.exception:
        body += outcome.exception["traceback"]
    for line in body.splitlines():
        print(f"    {line}")
    if outcome.figures:
        print(f"    [{len(outcome.figures)} figure(s)]")
    if outcome.status == FAILED:
        print(f"  {outcome.failure}")


def _new(root: Path, args: argparse.Namespace) -> int:
    try:
        created = scaffold.new_page(
            root, args.page, args.title, args.snippet, args.question, args.asked, args.source
        )
    except scaffold.ScaffoldError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(created.report(root))
    print(f"next: write the snippet, then `docexec run {created.snippet.relative_to(root)}` and `make quick`")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="docexec", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run snippets and print each result")
    run.add_argument("paths", nargs="*", help="snippet files or folders (default: all of snippets/)")
    run.add_argument("--force", action="store_true", help="ignore the cache and execute again")
    run.add_argument("--workers", type=int, default=None, help="processes at once (default: cores)")
    run.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    new = commands.add_parser("new", help="a new page in the question structure, with its first snippet")
    new.add_argument("page", help="its path under docs/, e.g. week-2/day-7/mixed-precision")
    new.add_argument("--title", required=True, help="the page's title, also its entry in the navigation")
    new.add_argument("--snippet", required=True, help="the first snippet's name: what it shows, in words")
    new.add_argument("--question", help="the first question's heading, in a reader's words")
    new.add_argument("--asked", help="the question as the source asks it")
    new.add_argument("--source", help="the source's tag, e.g. 'Day 7, Q3'")
    args = parser.parse_args(argv)

    root = find_root(Path.cwd())
    if args.command == "new":
        return _new(root, args)
    engine = Engine(root, force=args.force, workers=args.workers)
    try:
        paths = [p for given in args.paths for p in _relative(given, root)] or engine.all_snippets()
        results, summary = engine.run(paths)
    except (DeclarationError, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for path in sorted(results):
        if not args.quiet or results[path].status == FAILED:
            _print_result(results[path])
    print(summary.line())
    return 1 if summary.failures else 0


if __name__ == "__main__":
    sys.exit(main())
