"""The site build: every page planned once, any host renders the plan."""

from __future__ import annotations

import datetime
import sys

import markdown
import pytest

from docexec import recordings, site
from docexec.execution import declarations
from docexec.execution.engine import Summary
from docexec.execution.outputs import Text
from docexec.execution.result import Cell, Figure, Reason, Result, Status
from docexec.render.figure_files import figure_name, figure_url
from docexec.render.markdown_ext import RunExtension, SnippetRenderer


class Recorder:
    """A results provider that says what it was asked for: each snippet passes, printing its path."""

    def __init__(self, running: frozenset[str] = frozenset()) -> None:
        self.asked: list[list[str]] = []
        self.running = running

    def __call__(self, paths: list[str]) -> tuple[dict[str, Result], Summary, set[str]]:
        self.asked.append(list(paths))
        done = [path for path in paths if path not in self.running]
        results = {
            path: Result(path, Status.PASSED, cells=[Cell(outputs=[Text("stdout", f"{path}\n")])])
            for path in done
        }
        return results, Summary(executed=len(done)), set(paths) & self.running


def _build(project, provider, environment: dict | None = None) -> site.SiteBuild:
    settings = project.engine().config
    return site.SiteBuild(project.root, settings, provider, environment or {}, recordings.Store(project.root))


def test_each_snippet_is_read_once_and_all_results_come_from_one_call(project, monkeypatch):
    one = project.snippet("page/one.py", "print(1)\n")
    two = project.snippet("page/two.py", "# docexec: timeout=5\nprint(2)\n")
    parsed = []
    read_file = declarations.read_file
    monkeypatch.setattr(declarations, "read_file", lambda *args: parsed.append(args[0]) or read_file(*args))
    provider = Recorder()
    planned = _build(project, provider).plan(
        {
            "a.md": f"# A\n\n%run {one}\n\n%run {two}\n",
            "b.md": f"# B\n\n%run {one}\n",
            "c.md": "# No snippets\n",
        }
    )
    assert provider.asked == [[one, two]]
    assert len(parsed) == 2  # one parse per snippet, however many pages show it
    assert [(use.line, use.path, use.result.output) for use in planned.pages["a.md"].uses] == [
        (3, one, f"{one}\n"),
        (5, two, f"{two}\n"),
    ]
    assert planned.pages["a.md"].uses[1].declarations.timeout == 5
    assert planned.pages["c.md"].uses == []
    assert planned.pages_using(one) == ["a.md", "b.md"] and planned.pages_using(two) == ["a.md"]
    assert planned.shown_on() == {one: ["a.md", "b.md"], two: ["a.md"]}


def test_an_unusable_run_line_is_a_failed_use_with_page_and_line_and_the_others_still_run(project):
    good = project.snippet("page/good.py", "print('good')\n")
    bad = project.snippet("page/bad.py", "# docexec: timeout=soon\nprint('never')\n")
    page = f"# Page\n\n%run snippets/page/missing.py\n%run {bad}\n%run ../escape.py\n%run {good}\n"
    engine = project.engine()
    plan = _build(project, site.engine_results(engine, progress=False)).plan_page("week-1/page.md", page)
    missing, declared, escape, passed = plan.uses
    assert (missing.result.status, missing.result.reason) == (Status.FAILED, Reason.NO_SUCH_SNIPPET)
    assert missing.result.failure.startswith(
        "docs/week-1/page.md:3: %run snippets/page/missing.py: no such snippet"
    )
    assert (declared.result.status, declared.result.reason) == (Status.FAILED, Reason.BAD_DECLARATION)
    assert declared.result.failure.startswith(f"docs/week-1/page.md:4: {bad}:1: ")
    assert (escape.result.status, escape.result.reason) == (Status.FAILED, Reason.NO_SUCH_SNIPPET)
    assert escape.result.failure.startswith("docs/week-1/page.md:5: ")
    assert passed.result.status == Status.PASSED and passed.result.output == "good\n"
    assert plan.anchors == {"good"} and plan.ran_here == [passed]


def test_a_snippet_still_running_is_planned_as_such_and_not_said_to_have_run(project):
    done = project.snippet("page/done.py", "print(1)\n")
    slow = project.snippet("page/slow.py", "print(2)\n")
    plan = _build(project, Recorder(running=frozenset({slow}))).plan_page(
        "p.md", f"%run {done}\n\n%run {slow}\n"
    )
    assert [use.result.reason for use in plan.uses] == [None, Reason.STILL_RUNNING]
    assert plan.still_running == [plan.uses[1]] and plan.ran_here == [plan.uses[0]]


def test_a_cuda_snippet_that_skipped_carries_its_gpu_recording_and_its_figures(project):
    path = project.snippet("page/gpu.py", "# docexec: cuda\nprint('on the gpu')\n")
    figure = Figure("png", "iVBORw0KGgo=", 10, 10)
    environment = {"device": "cuda", "gpu": "A GPU", "torch": "2.0", "python": "3.11"}
    ran = Result(path, Status.PASSED, cells=[Cell(outputs=[Text("stdout", "on the gpu\n"), figure])])
    ran.environment = environment
    recordings.write(project.root, ran, datetime.date(2026, 1, 2))
    engine = project.engine()  # on a CPU: the snippet skips
    build = _build(project, site.engine_results(engine, progress=False), engine.environment)
    planned = build.plan({"p.md": f"%run {path}\n"})
    use = planned.pages["p.md"].uses[0]
    assert use.result.status == Status.SKIPPED and use.recording is not None and not use.recording.stale
    assert use.recording.result.output == "on the gpu\n"
    assert planned.pages["p.md"].ran_here == []  # the page line says nothing ran here on a GPU
    assert figure_name(figure) in {figure_name(f) for r in planned.shown_results() for f in r.figures}


def test_the_renderer_shows_the_plan_it_is_given_without_asking_again(project):
    path = project.snippet("page/hello.py", "print('hello')\n")
    provider = Recorder()
    build = _build(project, provider)
    page = f"# Page\n\n%run {path}\n"
    plan = build.plan_page("week-1/page.md", page)
    renderer = SnippetRenderer(build)
    renderer.start_page("docs/week-1/page.md", "week-1/page.md", plan)
    html = markdown.markdown(page, extensions=[RunExtension(renderer), "pymdownx.superfences", "attr_list"])
    assert f"{path}\n" in html and 'id="hello"' in html
    assert provider.asked == [[path]]  # the plan's result: nothing asked for while rendering


def test_a_renderer_given_no_plan_plans_the_page_it_renders(project):
    path = project.snippet("page/hello.py", "print('hello')\n")
    provider = Recorder()
    renderer = SnippetRenderer(_build(project, provider))
    renderer.start_page("docs/page.md", "page.md")
    html = markdown.markdown(f"%run {path}\n", extensions=[RunExtension(renderer), "pymdownx.superfences"])
    assert f"{path}\n" in html and provider.asked == [[path]]


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ("index.md", "assets/figures/"),
        ("week-1/autograd.md", "../assets/figures/"),
        ("a/b/c.md", "../../assets/figures/"),
    ],
)
def test_a_figures_url_depends_on_the_figure_and_the_page_only(page, expected):
    figure = Figure("svg", "PHN2Zy8+", 10, 10)
    assert figure_url(figure, page) == expected + figure_name(figure)


def test_a_lab_page_is_named_after_the_labs_folder_inside_the_snippets_folder(project):
    settings = project.engine().config.replace(labs="snippets/labs")
    assert site.lab_page("snippets/labs/steps.py", settings) == "labs/steps.ipynb"
    assert site.lab_snippet("labs/steps.ipynb", settings) == "snippets/labs/steps.py"
    assert site.lab_snippet("labs/steps.ipynb", settings.replace(labs=None)) is None



class _Opens:
    """The files of ``watched`` that this process opened, by Python's audit events."""

    watched: set[str] = set()
    opened: list[str] = []
    hooked = False

    @classmethod
    def watch(cls, path: str) -> None:
        cls.watched.add(path)
        if not cls.hooked:  # an audit hook cannot be removed: it counts only the files watched
            sys.addaudithook(cls._event)
            cls.hooked = True

    @classmethod
    def _event(cls, event: str, args: tuple) -> None:
        if event == "open" and args and str(args[0]) in cls.watched:
            cls.opened.append(str(args[0]))


def test_a_build_reads_each_snippet_once_and_runs_what_it_read(project):
    """The plan reads a snippet's declarations and source once; the engine keys and runs those bytes."""
    path = project.snippet("page/once.py", "print('read once')\n")
    file = str(project.root / path)
    engine = project.engine()
    build = site.SiteBuild.of_engine(engine, site.engine_results(engine, progress=False), "docs")
    _Opens.watch(file)
    for run in ("executed", "cached"):
        _Opens.opened.clear()
        use = build.plan({"index.md": f"%run {path}\n"}).pages["index.md"].uses[0]
        assert use.result.output == "read once\n" and use.result.cached == (run == "cached")
        assert _Opens.opened == [file], run
    engine.close()
