"""Where and when outputs were produced, said once per page in a reader's words."""

from __future__ import annotations

import datetime
import html
import os

from docexec.render.plain_text import html_text

# What names the machine in an engine's environment; every other key is a configured distribution
# (`Config.environment`: torch for a PyTorch site), named with its release.
MACHINE_KEYS = ("device", "gpu", "cuda", "python")


def build_date() -> datetime.date:
    """Today (UTC), or the date of ``SOURCE_DATE_EPOCH`` for a reproducible build."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    now = (
        datetime.datetime.fromtimestamp(int(epoch), datetime.UTC)
        if epoch
        else datetime.datetime.now(datetime.UTC)
    )
    return now.date()


def device_words(environment: dict) -> str:
    """``a CPU``; on CUDA, the GPU's model and the CUDA release torch was built for, where known."""
    if environment.get("device") != "cuda":
        return "a CPU"
    named = [environment[key] for key in ("gpu",) if environment.get(key)]
    if environment.get("cuda"):
        named.append(f"CUDA {environment['cuda']}")
    return "a CUDA GPU" + (f" ({', '.join(named)})" if named else "")


def distributions(environment: dict) -> dict[str, str]:
    """The distributions an environment names, in their configured order, with their releases."""
    return {key: value for key, value in environment.items() if key not in MACHINE_KEYS}


def software_words(environment: dict) -> str:
    """``with torch 2.13.0 and Python 3.11.7``; ``with Python 3.11.7`` where none is configured."""
    named = [f"{name} {release}" for name, release in distributions(environment).items()]
    python = f"Python {environment.get('python')}"
    return f"with {', '.join(named)} and {python}" if named else f"with {python}"


def environment_words(environment: dict) -> str:
    return f"on {device_words(environment)} {software_words(environment)}"


def differs(environment: dict, page_environment: dict | None) -> bool:
    """True when an output was produced elsewhere than the rest of its page (a recorded GPU run)."""
    if page_environment is None:
        return False
    keys = {"device", "gpu", "python", *distributions(environment), *distributions(page_environment)}
    return any(environment.get(key) != page_environment.get(key) for key in keys)


def page_words(environment: dict, needs_gpu: list[bool]) -> str:
    """Where a page's outputs ran, one flag per output run here (declared ``cuda`` or not).

    On a CUDA machine only the snippets declared ``cuda`` use the GPU; the others run on its CPU,
    so a page says a GPU only for what ran on one."""
    on_cpu = {**environment, "device": "cpu"}
    if environment.get("device") != "cuda" or not any(needs_gpu):
        return environment_words(on_cpu)
    if all(needs_gpu):
        return environment_words(environment)
    return (
        f"on {device_words(environment)} for the snippets that need one and on a CPU for the others,"
        f" {software_words(environment)}"
    )


def page_line_html(
    environment: dict,
    built: datetime.date,
    notebook: str | None,
    needs_gpu: list[bool] | None = None,
    colab: str | None = None,
) -> str:
    """The line under a page's title: where its outputs ran (`page_words`), when, and its notebook:
    ``notebook``, its file beside the page; ``colab``, the URL that opens it in Colab."""
    when = f'<time datetime="{built.isoformat()}">{built.day} {built:%B %Y}</time>'
    words = page_words(environment, needs_gpu or [])
    text = f"Outputs on this page were produced {html_text(words)}, built {when}."
    if notebook:
        link = html.escape(notebook, quote=True)
        text += (
            f' <a class="docexec-download" href="{link}" download>'
            "Download this page as a Jupyter notebook</a>"
        )
    if notebook and colab:
        text += f' <a class="docexec-colab" href="{html.escape(colab, quote=True)}">Open in Colab</a>'
    return f'<p class="docexec-page-line">{text}</p>'


__all__ = [
    "build_date",
    "device_words",
    "differs",
    "distributions",
    "environment_words",
    "page_line_html",
    "page_words",
    "software_words",
]
