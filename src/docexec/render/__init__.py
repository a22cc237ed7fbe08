"""Turning results into what readers see: the ``%run`` Markdown extension and the blocks it
writes, gists, figures as served, where outputs were produced, the notebooks (labs and pages),
what a site adds beside its pages (figures, notebooks, the build report) and a focused preview's
stubs. Nothing here runs a snippet."""
