"""The preview keeps the theme's compiled templates for the server's life: MkDocs makes a new
template environment for every build, and a template compiles again only when its source changed."""

from __future__ import annotations

import jinja2

from docexec.hosts.serving import Serving


def _environment(serving: Serving, source: str, compiled: list[str]) -> jinja2.Environment:
    class Counting(jinja2.Environment):
        def compile(self, source, name=None, filename=None, raw=False, defer_init=False):  # type: ignore[no-untyped-def]
            compiled.append(name)
            return super().compile(source, name, filename, raw, defer_init)

    environment = Counting(loader=jinja2.DictLoader({"main.html": source}))
    environment.bytecode_cache = serving.compiled_templates  # what the plugin's on_env does
    return environment


def test_a_template_compiles_once_per_server_and_again_when_edited():
    serving = Serving()
    try:
        compiled: list[str] = []
        for _ in range(3):  # three builds, each with the environment MkDocs makes anew
            template = _environment(serving, "<p>{{ 6 * 7 }}</p>", compiled).get_template("main.html")
            assert template.render() == "<p>42</p>"
        assert compiled == ["main.html"]
        edited = _environment(serving, "<p>{{ 6 * 8 }}</p>", compiled).get_template("main.html")
        assert edited.render() == "<p>48</p>" and compiled == ["main.html", "main.html"]
    finally:
        serving.close()
