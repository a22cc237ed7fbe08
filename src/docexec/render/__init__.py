"""Turning results into what readers see: the ``%run`` Markdown extension and the blocks it
writes, gists, figures as served, where outputs were produced, page notebooks, labs and the build
report. Nothing here runs a snippet."""
