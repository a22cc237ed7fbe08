"""``docexec run [PATH...]``: run snippets (all when none is given) and print their results;
``--shard I/N`` runs one of N shards balanced by known durations.
``docexec merge-cache DIR...``: merge shards' caches into this project's, so a build executes nothing.
``docexec record``: on a CUDA machine, record the CUDA snippets' outputs into ``recordings/``.
``docexec new PAGE --title ... --snippet ...``: a new page with its first snippet (`docexec.hosts.scaffold`).

The ``DOCEXEC_*`` variables (`docexec.config`) are read here, not by the engine."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from docexec import config, recordings
from docexec.execution import shards
from docexec.execution.engine import Engine, find_root
from docexec.execution.outputs import Figure, Text
from docexec.execution.pool import EngineError
from docexec.execution.result import Result, Status
from docexec.hosts import scaffold
from docexec.render import provenance


def _relative(path: str, root: Path, folder: str) -> list[str]:
    """The snippets that ``path`` names: a snippet, or a folder that holds at least one (under the
    snippets ``folder``). Anything else is refused: an empty folder or ``docs/`` must not stand for
    "every snippet"."""
    target = Path(path).resolve()
    if not target.exists():
        raise FileNotFoundError(f"{path}: no such snippet")
    if not target.is_relative_to(root):
        raise FileNotFoundError(f"{path}: not inside the project at {root}")
    refused = FileNotFoundError(f"{path}: holds no snippet (snippets are the .py files under {folder}/)")
    if not target.is_relative_to(root / folder):
        raise refused
    files = sorted(target.rglob("*.py")) if target.is_dir() else [target]
    if not files or (target.is_file() and target.suffix != ".py"):
        raise refused
    return [file.relative_to(root).as_posix() for file in files]


def _print_result(outcome: Result) -> None:
    origin = "cached" if outcome.cached else f"{outcome.duration:.2f} s" if outcome.ran else "not run"
    if outcome.status is Status.SKIPPED:
        print(f"SKIP {outcome.path}: {outcome.failure}")
        return
    label = "FAIL" if outcome.status is Status.FAILED else "PASS"
    print(f"{label} {outcome.path} ({origin})")
    for line in _shown_lines(outcome):
        print(f"    {line}")
    if outcome.status is Status.FAILED:
        print(f"  {outcome.failure}")


def _shown_lines(outcome: Result) -> list[str]:
    """What the page shows of ``outcome``, in the order the snippet made it: its text, a line for
    each figure, and the traceback of an exception it declared."""
    lines: list[str] = []
    text = ""  # text of one stream or both, until the next figure or exception
    for output in (output for cell in outcome.cells for output in cell.outputs):
        if isinstance(output, Text):
            text += output.text
            continue
        lines, text = lines + text.splitlines(), ""
        if isinstance(output, Figure):
            title = f" {output.title!r}" if output.title else ""
            lines.append(f"[figure{title}, {output.width}x{output.height} px]")
        elif outcome.expected_exception:
            lines += output.traceback.splitlines()
    return lines + text.splitlines()


def _new(root: Path, args: argparse.Namespace) -> int:
    try:
        settings = config.load(root)
        options = {name: getattr(args, name) for name in scaffold.hook_options(root)}
        created = scaffold.new_page(root, args.page, args.title, args.snippet, options, settings)
    except (scaffold.ScaffoldError, config.ConfigError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(created.report(root))
    print(f"next: write the snippet, then `docexec run {created.snippet.relative_to(root)}` and `make quick`")
    return 0


def _engine(root: Path, args: argparse.Namespace) -> Engine:
    settings = config.from_environment(root)
    if getattr(args, "cache_dir", None):
        settings = settings.replace(cache_dir=Path(args.cache_dir).resolve())
    if getattr(args, "seed", None) is not None:
        settings = settings.replace(seed=config.check_seed(args.seed, "--seed"))
    return Engine(root, settings.replace(force=settings.force or args.force), workers=args.workers)


def _run_command(root: Path, args: argparse.Namespace) -> int:
    engine = _engine(root, args)
    given = [p for path in args.paths for p in _relative(path, root, engine.config.snippets)]
    paths = given or engine.all_snippets()
    if args.shard:
        index, count = shards.parse_shard(args.shard)
        paths = shards.shard(engine, paths, index, count)
        print(f"shard {index}/{count}: {len(paths)} snippets")
    results, summary = engine.execute(paths)
    for path in sorted(results):
        if not args.quiet or results[path].status is Status.FAILED:
            _print_result(results[path])
    if args.report:
        Path(args.report).write_text(json.dumps(_report(results), indent=1, sort_keys=True) + "\n")
    print(summary.line())
    return 1 if summary.failures else 0


def _report(results: dict[str, Result]) -> dict:
    """What a drift run compares: each snippet's verdict and why (`Reason`), its output and failure,
    and the torch it ran on."""
    return {
        path: {
            "status": r.status,
            "reason": r.reason,
            "output": r.output,
            "failure": r.failure,
            "torch": r.environment.get("torch"),
        }
        for path, r in results.items()
    }


def _record(root: Path, args: argparse.Namespace) -> int:
    # One at a time unless told otherwise: the CUDA snippets share one GPU, and many of them time it.
    args.workers = args.workers or 1
    engine = _engine(root, args)
    environment = engine.environment
    pinned = recordings.pinned_release(root)
    print(
        f"recording {provenance.environment_words(environment)}"
        + (f"; the project pins torch {pinned}" if pinned else "")
    )
    if args.dry_run:
        paths, unreadable = recordings.cuda_snippets(engine)
        for path in paths:
            print(f"WOULD RUN {path}")
        for outcome in unreadable:
            print(f"FAIL {outcome.path}\n  {outcome.failure}")
        print(f"{len(paths)} CUDA snippets to record on {provenance.device_words(environment)}")
        return 1 if unreadable else 0
    report = recordings.record(engine, provenance.build_date(), force=args.force)
    for path in report.written:
        print(f"RECORDED {path}")
    for path in report.removed:
        file = recordings.recording_file(root, path, engine.config.snippets).relative_to(root)
        print(f"REMOVED {file} ({path} is no CUDA snippet)")
    for outcome in report.failures:
        _print_result(outcome)  # its output and traceback: the machine that showed them may be gone
    print(report.line())
    return 1 if report.failures else 0


def _merge(root: Path, args: argparse.Namespace) -> int:
    target = Path(args.into) if args.into else _engine(root, args).cache.root
    copied, present = shards.merge_caches([Path(d) for d in args.caches], target)
    print(f"merged into {target}: {copied} entries copied, {present} already there")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="docexec", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run snippets and print each result")
    run.add_argument("paths", nargs="*", help="snippet files or folders (default: every snippet)")
    run.add_argument("--shard", help="I/N: run only shard I of N, balanced by known durations")
    run.add_argument("--cache-dir", help="the results cache (default: DOCEXEC_CACHE_DIR or .cache/docexec)")
    run.add_argument(
        "--report", help="also write each result (status, reason, output, failure) to this JSON file"
    )
    run.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    run.add_argument(
        "--seed",
        type=int,
        help="seed the generators with this instead of [tool.docexec] seed: a proof that holds "
        "only for one seed fails under another",
    )
    record = commands.add_parser("record", help="on a CUDA machine: record the CUDA snippets' outputs")
    record.add_argument(
        "--dry-run", action="store_true", help="list the CUDA snippets it would run and where; run none"
    )
    merge = commands.add_parser("merge-cache", help="copy the entries of shards' caches into one cache")
    merge.add_argument("caches", nargs="+", help="cache folders written by `docexec run --shard`")
    merge.add_argument("--into", help="the cache to merge into (default: this project's)")
    for command in (run, record):
        command.add_argument("--force", action="store_true", help="ignore the cache and execute again")
        command.add_argument("--workers", type=int, default=None, help="processes at once (default: cores)")
    new = commands.add_parser("new", help="a new page from the project's templates, with its first snippet")
    new.add_argument("page", help="its path under the docs folder, e.g. guide/first-steps")
    new.add_argument("--title", required=True, help="the page's title, also its entry in the navigation")
    new.add_argument("--snippet", required=True, help="the first snippet's name: what it shows, in words")
    try:
        project_options = scaffold.hook_options(find_root(Path.cwd()))  # the project's `new-page` hook
    except FileNotFoundError:
        project_options = {}
    for name, meaning in project_options.items():
        new.add_argument(f"--{name.replace('_', '-')}", dest=name, help=meaning)
    args = parser.parse_args(argv)

    try:
        root = find_root(Path.cwd())
    except FileNotFoundError as error:
        print(f"error: {error}: run docexec inside a project", file=sys.stderr)
        return 2
    if args.command == "new":
        return _new(root, args)
    if args.command == "merge-cache":
        args.force, args.workers = False, None
    command = {"run": _run_command, "record": _record, "merge-cache": _merge}[args.command]
    try:
        return command(root, args)
    except (EngineError, FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
