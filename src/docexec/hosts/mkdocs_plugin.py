"""MkDocs glue: maps MkDocs' events onto the site build (`docexec.site`), which plans every page
before any renders, and adds what it makes (`docexec.render.site_files`) to the site. Under
``mkdocs serve`` the instance lives as long as the server, and the preview with it
(`docexec.hosts.serving`): one engine for every rebuild, pages served before their snippets ran."""

from __future__ import annotations

import logging
import os
import posixpath
from pathlib import Path
from urllib.parse import urljoin

from mkdocs.config import base, config_options
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File

from docexec import site
from docexec.config import ConfigError, from_environment
from docexec.hosts import includes, repository_bounds
from docexec.hosts.serving import Serving, engine_for
from docexec.render import focus, provenance, publication, site_files
from docexec.render.markdown_ext import RunExtension, SnippetRenderer

log = logging.getLogger("mkdocs.plugins.docexec")


class DocexecConfig(base.Config):
    execute = config_options.Type(bool, default=True)
    force = config_options.Type(bool, default=False)
    workers = config_options.Optional(config_options.Type(int))


def planned_site(config) -> site.Site:  # type: ignore[no-untyped-def]
    """The plan this build's docexec plugin made of the site: every page's Markdown as read once
    (`site.Site.markdown`), its ``%run`` uses and their results. The seam for a site's own plugin:
    call it from ``on_files`` with a lower priority than docexec's (``@event_priority(-50)``)."""
    plugin = config.plugins.get("docexec")
    if not isinstance(plugin, DocexecPlugin):
        raise PluginError("the docexec plugin is not in mkdocs.yml's plugins: nothing planned the pages")
    if getattr(plugin, "made", None) is None:
        raise PluginError("the site plan is read after docexec's on_files: give on_files a lower priority")
    return plugin.made.site


class DocexecPlugin(BasePlugin[DocexecConfig]):
    # Under `mkdocs serve` one instance lives through every rebuild, and the preview's engine with it.
    serving: Serving | None = None
    made: site_files.Made | None = None  # this build's plan and files, from on_files on

    def on_startup(self, *, command, dirty):  # type: ignore[no-untyped-def]
        self.serving = Serving.start() if command == "serve" else None

    def on_shutdown(self):  # type: ignore[no-untyped-def]
        if self.serving is not None:
            self.serving.close()

    def on_serve(self, server, config, builder):  # type: ignore[no-untyped-def]
        return self.serving.watch(server)  # the background run asks for rebuilds there

    def on_config(self, config):  # type: ignore[no-untyped-def]
        self.root = Path(config.config_file_path).parent.resolve()
        # DOCEXEC_EXECUTE=0 switches execution off for one run: pages show code only.
        self.execute = self.config.execute and os.environ.get("DOCEXEC_EXECUTE", "1") != "0"
        # DOCEXEC_FOCUS=guide/autograd (`make serve PAGE=...`): a preview of those pages only.
        self.focus = focus.focused_pages(os.environ.get("DOCEXEC_FOCUS", "")) if self.serving else frozenset()
        if self.focus:  # the pages left out on purpose (labs) are no mistake in the nav
            config.validation.nav.not_found = logging.INFO
        try:
            settings = from_environment(self.root)  # [tool.docexec], then DOCEXEC_*
        except ConfigError as error:  # "Error: pyproject.toml:LINE: ..." and no traceback
            raise PluginError(f"docexec: {error}") from None
        settings = settings.replace(force=settings.force or self.config.force)
        engine, results = engine_for(self.serving, self.root, settings, self.config.workers, self.execute)
        if self.serving is not None:
            self.serving.build_started(config.site_dir)
        self.built, self.engine = provenance.build_date(), engine
        self.repository = config.repo_url or config.extra.get("repository")  # where the library comes from
        docs = Path(config.docs_dir).resolve().relative_to(self.root).as_posix()
        self.build = site.SiteBuild.of_engine(engine, results, docs)
        self.renderer = SnippetRenderer(self.build, library_repository=self.repository, figure_files=True)
        config.markdown_extensions.append(RunExtension(self.renderer))
        self.include_folders = includes.folders(config, self.root)
        shown = ", ".join(f"{os.path.relpath(folder, self.root)}/" for folder in self.include_folders)
        config.markdown_extensions.append(includes.IncludeGuard(lambda: self.renderer.page, shown))
        return config

    def _files_out_of_the_repository(self, files, config) -> list[str]:  # type: ignore[no-untyped-def]
        """What leads out of the repository (`repository_bounds`) among the pages, assets and
        overrides MkDocs found, which are left out before anything reads them, and among the files
        a page may include."""
        found = []
        for file in list(files):
            if file.abs_src_path and (why := repository_bounds.file_problems(self.root, [file.abs_src_path])):
                files.remove(file)
                found += why
        for folder in filter(None, [config.docs_dir, config.theme.custom_dir, *self.include_folders]):
            found += repository_bounds.folder_problems(self.root, folder)
        return list(dict.fromkeys(found))

    def on_files(self, files, config):  # type: ignore[no-untyped-def]
        leading_out = self._files_out_of_the_repository(files, config)
        pages = site_files.markdown_pages((f.src_uri, f.abs_src_path) for f in files.documentation_pages())
        folder_of = lambda uri: posixpath.dirname(files.get_file_from_path(uri).dest_uri)  # noqa: E731
        url_of = site_files.published_url(files.get_file_from_path, config.site_url)
        labs_root = self.engine.cache.root / "pages"  # mkdocs-jupyter reads a lab from a real file
        built = self.built if self.execute else None
        memo = self.serving.notebooks if self.serving else None
        # The notebooks install the project from the commit built, and Colab opens them from its tag.
        published = publication.Publication(self.repository, publication.source_commit(self.root))
        self.made = site_files.make(
            self.build,
            pages,
            self.focus,
            labs_root,
            self.repository,
            built,
            folder_of,
            url_of,
            memo,
            published,
        )
        for problem in site.problems(self.made.site, self.engine.all_snippets(), self.focus):
            log.warning("%s", problem)
        if leading_out:  # after the plan, which names what else is wrong (a recording), and before any page
            lines = "\n  ".join(leading_out)
            raise PluginError(f"docexec: a file the site reads is a link out of the repository:\n  {lines}")
        for uri in self.made.lab_pages:
            files.append(File(uri, str(labs_root), config.site_dir, config.use_directory_urls))
        for path, content in self.made.files.items():
            files.append(File.generated(config, path, content=content))
        return files

    def on_page_read_source(self, page, config):  # type: ignore[no-untyped-def]
        uri = page.file.src_uri
        if focus.in_focus(self.focus, uri) or not uri.endswith(".md") or page.file.abs_src_path is None:
            return None
        return focus.stub(Path(page.file.abs_src_path).read_text(encoding="utf-8"), page.title, self.focus)

    def on_page_markdown(self, markdown, page, config, files):  # type: ignore[no-untyped-def]
        plan = self.made.site.pages.get(page.file.src_uri)
        self.renderer.start_page(self.build.page_name(page.file.src_uri), page.file.src_uri, plan)
        if self.serving is not None:  # converted again only where its inputs changed
            self.serving.reuse_conversion(page, plan, config, files)
        return markdown

    def on_page_content(self, html, page, config, files):  # type: ignore[no-untyped-def]
        # A snippet block's id is inside HTML that superfences stashes before MkDocs looks for raw
        # HTML ids, so links to it (``#file_name``) would be reported as broken: register them.
        plan = self.made.site.pages.get(page.file.src_uri)
        if page.present_anchor_ids is not None and plan is not None:
            page.present_anchor_ids |= plan.anchors
        progress = self.serving.progress if self.serving else str
        return self.made.page_html(html, page.file.src_uri, progress, posixpath.dirname(page.file.dest_uri))

    def on_env(self, env, config, files):  # type: ignore[no-untyped-def]
        if self.serving is not None:  # the theme's templates compile once per server, not per build
            env.bytecode_cache = self.serving.compiled_templates
        return env

    def on_page_context(self, context, page, config, nav):  # type: ignore[no-untyped-def]
        snippet = site.lab_snippet(page.file.src_uri, self.build.config)  # a lab's source is its snippet
        if page.file.src_uri in self.made.lab_pages and config.edit_uri and snippet:
            page.edit_url = urljoin(config.edit_uri, "../" + snippet)
        return context

    def on_post_build(self, config):  # type: ignore[no-untyped-def]
        if self.serving is not None:
            self.serving.build_ended()
        log.info("docexec: %s", self.made.summary())
