"""What a snippet showed, one value per output, kept in the order it made them: the text of a stream,
a figure, the exception that ended it.

Each kind is a small frozen dataclass named by its ``kind``; a cell holds them in one list
(`docexec.execution.result.Cell`). How each kind is shown on a page and in a notebook:
`docexec.render.outputs`.
"""

from __future__ import annotations

import base64
import dataclasses
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from docexec.execution import published

STREAMS = ("stdout", "stderr")


@dataclass(frozen=True)
class Text:
    """What one stream printed, as it came (adjacent text of the same stream is one value)."""

    kind: ClassVar[str] = "text"
    stream: str  # "stdout" or "stderr"
    text: str


@dataclass(frozen=True)
class Figure:
    """One figure as drawn: the image, its displayed size, and what the tests check it by."""

    kind: ClassVar[str] = "figure"
    format: str  # "svg" or "png"
    data: str  # base64
    width: int  # displayed size, CSS px
    height: int
    title: str = ""  # "" when untitled
    marks: int = 0  # lines, patches, collections and images drawn: 0 is an empty figure
    smallest_font_px: float | None = None  # at the displayed size
    colormapped: bool = False  # colours carry data (images, colour maps)

    @property
    def bytes(self) -> bytes:
        return base64.b64decode(self.data)

    @property
    def media_type(self) -> str:
        return "image/svg+xml" if self.format == "svg" else "image/png"


@dataclass(frozen=True)
class SnippetException:
    """The exception a snippet raised, as a reader sees it; the last output of the cell it ended."""

    kind: ClassVar[str] = "error"
    type: str  # the class's name
    qualified_types: list[str]  # module.name of the class and its bases: raises= matches any
    message: str
    line: int | None  # in the snippet, where it was raised
    traceback: str  # the snippet's own frames only


Output = Text | Figure | SnippetException
KINDS: dict[str, type[Output]] = {kind.kind: kind for kind in (Text, Figure, SnippetException)}
AnyOutput = TypeVar("AnyOutput", Text, Figure, SnippetException)


def to_json(output: Output) -> dict:
    return {"kind": output.kind, **dataclasses.asdict(output)}


def from_json(data: dict) -> Output:
    """An output as `to_json` wrote it, made fit to publish (`publishable`): raises ValueError or
    TypeError on anything else, e.g. a forged cache entry."""
    fields = dict(data)
    kind = KINDS.get(fields.pop("kind", None))
    if kind is None:
        raise ValueError(f"an output of kind {data.get('kind')!r}")
    return publishable(kind(**fields))


def publishable(output: AnyOutput) -> AnyOutput:
    """``output`` as it may leave the engine: texts cleaned (`published.clean`); a figure that is
    not an inert SVG or a PNG is refused with ValueError."""
    if isinstance(output, Text):
        if output.stream not in STREAMS or not isinstance(output.text, str):
            raise ValueError(f"a stream named {output.stream!r}")
        return dataclasses.replace(output, text=published.clean(output.text))
    if isinstance(output, Figure):
        if output.format not in ("svg", "png"):
            raise ValueError(f"a figure of format {output.format!r}")
        refused = published.svg_refusal(output.bytes) if output.format == "svg" else None
        if refused:
            raise ValueError(f"an SVG figure that could run script or fetch from elsewhere: {refused}")
        return dataclasses.replace(output, title=published.clean(output.title))
    return dataclasses.replace(
        output, message=published.clean(output.message), traceback=published.clean(output.traceback)
    )
