"""Whether an SVG figure is safe to publish: parsed as XML, every element, attribute and URL on an
allow-list of what matplotlib writes, nothing else.

A page shows a figure in an ``<img>``, which runs no script; a click opens it at full size as a
document of the site's origin, where ``<script>``, an ``on*`` handler, ``<foreignObject>`` HTML or a
``javascript:`` link would run. A byte pattern cannot tell: ``&#106;avascript:`` is the same URL
to a browser. So the figure is read as a browser reads it (expat decodes character references)
and judged on what it means:

- elements: SVG's drawing elements only (no ``script``, ``a``, ``foreignObject``, animation or
  element of another namespace), RDF metadata only inside ``<metadata>``;
- attributes: geometry and presentation ones (no ``on*``, nothing unknown);
- links (``href``): a reference inside the figure (``#id``) or an embedded PNG or JPEG image;
- CSS (``style``, presentation values): ``url()`` only to ``#id``, no escapes, imports or image
  sets that could fetch from elsewhere;
- no entity declaration, processing instruction (``xml-stylesheet``) or internal DTD subset.

Not promised: that the drawing is sensible (a figure can still show any picture).
"""

from __future__ import annotations

import re
from xml.parsers import expat

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"
_METADATA_NAMESPACES = {
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "http://creativecommons.org/ns#",
    "http://purl.org/dc/elements/1.1/",
}


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


ELEMENTS = _words(
    """svg g defs symbol use path rect circle ellipse line polyline polygon text tspan title desc
    metadata style image clipPath mask pattern marker linearGradient radialGradient stop filter
    feColorMatrix feComposite feFlood feGaussianBlur feOffset feMerge feMergeNode feBlend"""
)
_PRESENTATION = """alignment-baseline baseline-shift clip clip-path clip-rule color color-interpolation
    color-interpolation-filters color-rendering direction display dominant-baseline fill fill-opacity
    fill-rule filter flood-color flood-opacity font font-family font-size font-size-adjust font-stretch
    font-style font-variant font-weight image-rendering letter-spacing lighting-color marker-end
    marker-mid marker-start mask opacity overflow paint-order shape-rendering stop-color stop-opacity
    stroke stroke-dasharray stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit
    stroke-opacity stroke-width text-anchor text-decoration text-rendering unicode-bidi vector-effect
    visibility word-spacing writing-mode"""
_GEOMETRY = """id class style transform version baseProfile viewBox preserveAspectRatio x y x1 y1 x2 y2
    cx cy r rx ry fx fy fr width height d points pathLength dx dy rotate textLength lengthAdjust
    offset gradientUnits gradientTransform spreadMethod patternUnits patternContentUnits
    patternTransform clipPathUnits maskUnits maskContentUnits filterUnits primitiveUnits in in2
    operator k1 k2 k3 k4 type values result mode stdDeviation markerWidth markerHeight markerUnits
    orient refX refY href"""
ATTRIBUTES = _words(_PRESENTATION) | _words(_GEOMETRY) | {
    f"{XLINK} href",
    f"{XML} space",
    f"{XML} lang",
}
_METADATA_ATTRIBUTES = {f"{space} {name}" for space in _METADATA_NAMESPACES for name in ("about", "resource")}

# A browser drops ASCII whitespace and control characters from a URL before it reads the scheme.
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\x7f]+")
_LINK = re.compile(r"#[\w.:-]*|data:image/(?:png|jpeg);base64,[A-Za-z0-9+/=]*", re.ASCII)
_CSS_URL = re.compile(r"url\(", re.I)
_CSS_URL_TO_ID = re.compile(r"url\(\s*['\"]?#", re.I)
# Escapes could spell any of the others; imports and image sets fetch from anywhere.
_CSS_FORBIDDEN = re.compile(r"\\|@import|image-set\(|image\(|expression\(", re.I)


class UnsafeSvgError(ValueError):
    """The figure holds something outside the allow-list; the message says what and where."""


def check(data: bytes) -> None:
    """Raises `UnsafeSvgError` naming the first thing outside the allow-list, with its line."""
    _Checker(data).run()


def refusal(data: bytes) -> str | None:
    """Why ``data`` may not be published, or None when it may."""
    try:
        check(data)
    except UnsafeSvgError as unsafe:
        return str(unsafe)
    return None


class _Checker:
    def __init__(self, data: bytes) -> None:
        self._data = data
        self._parser = expat.ParserCreate(namespace_separator=" ")
        self._open: list[str] = []  # the names of the elements entered, outermost first
        self._seen_root = False
        self._css_text: list[str] = []  # of the <style> element entered: checked whole at its end
        parser = self._parser
        parser.buffer_text = True
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._text
        parser.StartDoctypeDeclHandler = self._doctype
        parser.ProcessingInstructionHandler = lambda target, _: self._refuse(
            f"a processing instruction <?{target} ...?>"
        )
        parser.EntityDeclHandler = lambda name, *_: self._refuse(f"an entity declaration ({name})")
        parser.UnparsedEntityDeclHandler = lambda name, *_: self._refuse(f"an entity declaration ({name})")
        parser.ExternalEntityRefHandler = lambda *_: self._refuse("an external entity")
        parser.SkippedEntityHandler = lambda name, _: self._refuse(f"an undeclared entity &{name};")

    def run(self) -> None:
        try:
            self._parser.Parse(self._data, True)
        except expat.ExpatError as error:
            reason = expat.ErrorString(error.code)
            raise UnsafeSvgError(f"not well-formed XML ({reason}) at line {error.lineno}") from None
        if not self._seen_root:
            raise UnsafeSvgError("no <svg> element")

    def _refuse(self, what: str) -> None:
        raise UnsafeSvgError(f"{what} at line {self._parser.CurrentLineNumber}")

    def _doctype(self, name: str, system: str | None, public: str | None, internal_subset: bool) -> None:
        if internal_subset:
            self._refuse("a DTD with declarations of its own")

    def _start(self, name: str, attributes: dict[str, str]) -> None:
        namespace, _, local = name.rpartition(" ")
        if self._open and self._open[-1] == f"{SVG} style":
            self._refuse(f"an element <{local}> inside <style>")
        in_metadata = any(entered == f"{SVG} metadata" for entered in self._open)
        if not self._open:
            if name != f"{SVG} svg":
                self._refuse(f"a root element <{local}> that is not SVG's <svg>")
            self._seen_root = True
        if namespace == SVG and local in ELEMENTS:
            allowed = ATTRIBUTES
        elif in_metadata and namespace in _METADATA_NAMESPACES:
            allowed = _METADATA_ATTRIBUTES
        else:
            self._refuse(f"an element <{local}>" + (f" of namespace {namespace}" if namespace != SVG else ""))
        for attribute, value in attributes.items():
            if attribute not in allowed:
                self._refuse(f"an attribute {attribute.rpartition(' ')[2]!r} on <{local}>")
            if allowed is ATTRIBUTES:
                self._value(local, attribute.rpartition(" ")[2], value)
        self._open.append(name)

    def _end(self, name: str) -> None:
        self._open.pop()
        if name == f"{SVG} style":
            self._css("".join(self._css_text), "<style>")
            self._css_text = []

    def _text(self, text: str) -> None:
        if self._open and self._open[-1] == f"{SVG} style":
            self._css_text.append(text)

    def _value(self, element: str, attribute: str, value: str) -> None:
        if attribute == "href":
            link = _IGNORED_IN_URL.sub("", value)
            if not _LINK.fullmatch(link):
                shown = link[:40] + ("..." if len(link) > 40 else "")
                self._refuse(f"a link to {shown!r} on <{element}> (only #id or an embedded image)")
        else:
            self._css(value, f"{attribute!r} on <{element}>")

    def _css(self, text: str, where: str) -> None:
        if _CSS_FORBIDDEN.search(text):
            self._refuse(f"CSS that could fetch or hide a URL in {where}")
        if len(_CSS_URL.findall(text)) != len(_CSS_URL_TO_ID.findall(text)):
            self._refuse(f"a url() to something outside the figure in {where}")
