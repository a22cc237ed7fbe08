"""What a snippet declares about itself, read from its own comment lines.

One parser serves the build, the tests and the command line, so they all read one truth:

    # docexec: cuda                                   needs a CUDA device
    # docexec: raises=RuntimeError match="regex"      must raise this (message searched with regex)
    # docexec: timeout=60                             seconds instead of the default (30)
    # docexec: show=core                              the page shows only the named part
    # docexec: memory=8G                              its processes may use 8 GiB (default 4 GiB)
    # docexec: network                                its processes may talk over loopback
    # docexec: measured                               its output is measured on the machine

Named parts use the section markers of pymdownx.snippets, so the standard extension can
include the same part: ``# --8<-- [start:core]`` ... ``# --8<-- [end:core]``. The part named
``gist`` may be marked more than once: its regions together are the lines the page shows first.
"""

from __future__ import annotations

import difflib
import functools
import io
import math
import os
import re
import shlex
import tokenize
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from docexec.execution import published

DEFAULT_TIMEOUT = 30.0  # unless the project's configuration says otherwise
# A page's example that runs longer than an hour is a mistake, not an example: the build would wait
# for it. The bound also keeps the value within what the kernel's timers accept (inf and 1e10
# overflow select() and stop the warm server).
MAX_TIMEOUT = 3600.0
# The most memory a snippet's processes may use together (the sum of their PSS), unless declared.
DEFAULT_MEMORY = 4 << 30
_MEMORY_UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_MEMORY_SIZE = re.compile(r"^(\d+(?:\.\d+)?)([KMGT])$")
PREFIX = "# docexec:"
ACCEPTED = {
    "cuda": "cuda (a flag: the snippet needs a CUDA device)",
    "raises": "raises=ExceptionName (the snippet must raise it)",
    "match": 'match="regex" (with raises: searched in the exception message)',
    "timeout": f"timeout=SECONDS (more than 0, at most {MAX_TIMEOUT:g})",
    "show": "show=NAME (the page shows the part between the NAME section markers)",
    "memory": "memory=SIZE (what its processes may use together, such as 512M or 8G)",
    "network": "network (a flag: its processes may connect to each other over loopback)",
    "measured": "measured (a flag: its output is measured on the machine, so differs from build to build)",
}
_DECLARATION_LINE = re.compile(r"^\s*#\s*docexec\b")
_CANONICAL_LINE = re.compile(r"^\s*# docexec:")
# The first word of a comment, to catch a misspelt prefix ("# DocExec:", "# docexc:", "#docexec:").
_COMMENT_WORD = re.compile(r"^\s*#+\s*(?P<word>[A-Za-z][\w-]*)\s*(?P<colon>:?)")
_TYPO_SIMILARITY = 0.8  # difflib ratio: "docexc" 0.92, "doc-exec" 0.93, "doctest" 0.57
_SECTION_LINE = re.compile(r"^\s*#\s*-{1,}8<-{1,}\s*\[(start|end):([\w-]+)\]\s*$")
_SECTION_LIKE = re.compile(r"^\s*#\s*-+8<")  # meant as a marker, whatever follows
_EXCEPTION_NAME = re.compile(r"^[A-Za-z_][\w.]*$")
GIST = "gist"  # the section a page shows first, above the output; it may be marked in several regions


class DeclarationError(ValueError):
    """A declaration or section marker that cannot be understood; names ``file:line``."""

    def __init__(self, path: str, line: int, problem: str) -> None:
        accepted = "; ".join(ACCEPTED.values())
        super().__init__(f"{path}:{line}: {problem}. Accepted declarations: {accepted}")
        self.path = path
        self.line = line


@dataclass(frozen=True)
class Declarations:
    """Everything a snippet declares, plus the named parts it marks."""

    cuda: bool = False
    raises: str | None = None
    match: str | None = None
    timeout: float | None = None  # seconds; None: the project's default (`docexec.config`)
    show: str | None = None
    show_line: int | None = None  # where show= is declared
    memory: int | None = None  # bytes; None: the project's default
    network: bool = False  # loopback for its own processes (distributed snippets); else none
    # Prints or draws what the machine measured (rates, timings): the one kind of output that may
    # differ between two cold builds; every other output must be the same in both.
    measured: bool = False
    raises_line: int | None = None  # where raises= is declared: a raise that does not come names it
    # name -> (first line, last line) of the part's content, 1-based and inclusive
    sections: dict[str, tuple[int, int]] = field(default_factory=dict)
    # the regions marked as the gist, in file order, as (first line, last line) like ``sections``
    gist: tuple[tuple[int, int], ...] = ()


@functools.lru_cache(maxsize=4096)  # the preview asks for every snippet's on each rebuild
def parse(source: str, path: str) -> Declarations:
    """Read the declarations of one snippet; raise `DeclarationError` on anything unknown."""
    values: dict[str, object] = {}
    _reject_hidden_characters(source, path)
    _reject_trailing_declarations(source, path)
    sections: dict[str, tuple[int, int]] = {}
    gist: list[tuple[int, int]] = []
    open_sections: dict[str, int] = {}
    for number, line in enumerate(source.splitlines(), start=1):
        if _looks_like_declaration(line):
            _parse_declaration(line, path, number, values)
            continue
        marker = _SECTION_LINE.match(line)
        if marker:
            kind, name = marker.groups()
            if kind == "start":
                if name in open_sections:
                    raise DeclarationError(path, number, f"section {name!r} starts again before it ends")
                if name in sections and name != GIST:
                    raise DeclarationError(path, number, f"section {name!r} starts twice")
                open_sections[name] = number
            else:
                if name not in open_sections:
                    raise DeclarationError(path, number, f"section {name!r} ends without a start")
                region = (open_sections.pop(name) + 1, number - 1)
                if name == GIST:
                    gist.append(region)
                sections.setdefault(name, region)
        elif _SECTION_LIKE.match(line):
            raise DeclarationError(
                path,
                number,
                "malformed section marker (expected '# --8<-- [start:NAME]' or '# --8<-- [end:NAME]')",
            )
    for name, start in open_sections.items():
        raise DeclarationError(path, start, f"section {name!r} is never ended")
    if "match" in values and "raises" not in values:
        raise DeclarationError(path, values["match_line"], "match= needs raises=")  # type: ignore[arg-type]
    show = values.get("show")
    if show is not None and show not in sections:
        raise DeclarationError(
            path,
            values["show_line"],
            f"show={show} names no section; "  # type: ignore[arg-type]
            f"sections here: {sorted(sections) or 'none'}",
        )
    return Declarations(
        cuda=bool(values.get("cuda", False)),
        raises=values.get("raises"),  # type: ignore[arg-type]
        match=values.get("match"),  # type: ignore[arg-type]
        timeout=values.get("timeout"),  # type: ignore[arg-type]
        show=show,  # type: ignore[arg-type]
        show_line=values.get("show_line"),  # type: ignore[arg-type]
        memory=values.get("memory"),  # type: ignore[arg-type]
        network=bool(values.get("network", False)),
        measured=bool(values.get("measured", False)),
        raises_line=values.get("raises_line"),  # type: ignore[arg-type]
        sections=sections,
        gist=tuple(gist),
    )


def parse_file(path: Path, root: Path, snippets: str = "snippets") -> Declarations:
    """`parse` for a file, naming it relative to ``root`` in errors. ``snippets``: the project's
    snippets folder under ``root`` (`docexec.config.Config.snippets`). A file that is not inside it
    once links are followed is refused: it would run and be published."""
    return read_file(path, root, snippets)[0]


def read_file(path: Path, root: Path, snippets: str = "snippets") -> tuple[Declarations, bytes]:
    """`parse_file`, and the bytes it read: what runs and what the cache key is taken from are
    the same text, whatever happens to the file meanwhile."""
    name = os.path.relpath(path, root) if path.is_absolute() == root.is_absolute() else str(path)
    if not is_inside(path, root, snippets):
        raise DeclarationError(
            Path(name).as_posix(),
            1,
            f"the file is not inside {snippets}/ (links followed); a snippet must be a file in {snippets}/",
        )
    data = path.read_bytes()
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise DeclarationError(Path(name).as_posix(), line, "the file is not UTF-8 text") from None
    return parse(source, Path(name).as_posix()), data


def is_inside(path: Path, root: Path, folder: str) -> bool:
    """Whether ``path`` is a path inside ``root/folder`` once links are followed."""
    return path.resolve().is_relative_to(_resolved(root / folder))


@functools.lru_cache(maxsize=64)  # a build asks for each snippet, and a preview for each build
def _resolved(folder: Path) -> Path:
    return folder.resolve()


def _looks_like_declaration(line: str) -> bool:
    """The exact prefix, or a comment meant as one: "docexec" in any case or spacing, or a
    misspelt word close to it followed by a colon."""
    if _DECLARATION_LINE.match(line) or _CANONICAL_LINE.match(line):
        return True
    comment = _COMMENT_WORD.match(line)
    if not comment:
        return False
    word = comment.group("word").lower()
    if word == "docexec":
        return True
    similar = difflib.SequenceMatcher(None, word, "docexec").ratio() >= _TYPO_SIMILARITY
    return similar and bool(comment.group("colon"))


# What a page or a reviewer would not see as it runs: control characters (a NUL byte) and the
# invisible ones that reorder or hide text (`published.INVISIBLE`); a BOM starting the file is fine.
_HIDDEN_IN_SOURCE = re.compile(f"[\\x00-\\x08\\x0b\\x0e-\\x1f\\x7f-\\x9f]|{published.INVISIBLE.pattern}")


def _reject_hidden_characters(source: str, path: str) -> None:
    found = _HIDDEN_IN_SOURCE.search(source, 1 if source.startswith("\ufeff") else 0)
    if found:
        line = source.count("\n", 0, found.start()) + 1
        name = unicodedata.name(found.group(), "a control character")
        raise DeclarationError(
            path, line, f"U+{ord(found.group()):04X} ({name}) in the source: a reader would not see it"
        )


def _reject_trailing_declarations(source: str, path: str) -> None:
    """A declaration after code (``x = 1  # docexec: timeout=3``) would be ignored: refuse it."""
    try:
        comments = [
            (token.start, token.line)
            for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT
        ]
    except (tokenize.TokenError, SyntaxError):
        return  # not Python: running it reports the syntax error with its line
    for (number, column), line in comments:
        if line[:column].strip() and _looks_like_declaration(line[column:]):
            raise DeclarationError(path, number, "a declaration must be on a line of its own, not after code")


def _parse_declaration(line: str, path: str, number: int, values: dict[str, object]) -> None:
    head, _, rest = line.partition(":")
    if not _CANONICAL_LINE.match(line) or not rest.strip():
        raise DeclarationError(
            path, number, f"malformed declaration {line.strip()!r} (expected '# docexec: key=value ...')"
        )
    try:
        tokens = shlex.split(rest)
    except ValueError as error:
        raise DeclarationError(path, number, f"cannot split {rest.strip()!r}: {error}") from None
    for token in tokens:
        key, has_value, value = token.partition("=")
        if key not in ACCEPTED:
            raise DeclarationError(path, number, f"unknown declaration {key!r}")
        if key in values:
            raise DeclarationError(path, number, f"{key!r} is declared twice")
        if key in ("cuda", "network", "measured"):
            if has_value:
                raise DeclarationError(path, number, f"{key} takes no value")
            values[key] = True
            continue
        if not value:
            raise DeclarationError(path, number, f"{key} needs a value ({ACCEPTED[key]})")
        if key == "timeout":
            try:
                seconds = float(value)
            except ValueError:
                seconds = math.nan
            if not 0 < seconds <= MAX_TIMEOUT:  # also false for nan
                raise DeclarationError(
                    path,
                    number,
                    f"timeout={value} is not a number of seconds above 0 and at most {MAX_TIMEOUT:g}",
                )
            values[key] = seconds
        elif key == "memory":
            size_bytes = parse_size(value)
            if size_bytes is None:
                raise DeclarationError(path, number, f"memory={value} is not a size such as 512M or 8G")
            values[key] = size_bytes
        elif key == "raises":
            if not _EXCEPTION_NAME.match(value):
                raise DeclarationError(path, number, f"raises={value} is not an exception name")
            values[key] = value
        elif key == "match":
            try:
                re.compile(value)
            except re.error as error:
                raise DeclarationError(path, number, f"match={value!r} is no regex: {error}") from None
            values[key] = value
        else:
            values[key] = value
        values[f"{key}_line"] = number


def parse_size(text: str) -> int | None:
    """Bytes for a size such as ``512M`` or ``8G`` (1 byte to 1024T); None for anything else."""
    size = _MEMORY_SIZE.match(text)
    size_bytes = float(size[1]) * _MEMORY_UNITS[size[2]] if size else math.nan
    return int(size_bytes) if 1 <= size_bytes <= _MEMORY_UNITS["T"] << 10 else None  # false for nan


def displayed_source(source: str, declarations: Declarations) -> str:
    """The code a reader sees: the named part if declared, without declaration or marker lines."""
    lines = source.splitlines()
    if declarations.show:
        first, last = declarations.sections[declarations.show]
        lines = lines[first - 1 : last]
    kept = [line for line in lines if not is_hidden_line(line)]
    while kept and not kept[0].strip():
        kept.pop(0)
    while kept and not kept[-1].strip():
        kept.pop()
    if declarations.show:
        kept = _dedent(kept)
    return "\n".join(kept) + "\n"


def is_hidden_line(line: str) -> bool:
    """A declaration or section marker line: it speaks to the engine, a reader never sees it."""
    return bool(_DECLARATION_LINE.match(line) or _SECTION_LINE.match(line))


def _dedent(lines: list[str]) -> list[str]:
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:] for line in lines]
