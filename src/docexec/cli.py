"""``docexec run [PATH...]``: run snippets (all when none is given) and print their results."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="docexec", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run snippets and print each result")
    run.add_argument("paths", nargs="*", help="snippet files or folders (default: all of snippets/)")
    run.add_argument("--force", action="store_true", help="ignore the cache and execute again")
    run.add_argument("--workers", type=int, default=None, help="processes at once (default: cores)")
    run.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    args = parser.parse_args(argv)

    root = find_root(Path.cwd())
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
