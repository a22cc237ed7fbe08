"""Measurements of the engine that print figures and assert nothing: ``python -m docexec.tools.bench``
(``make bench`` runs it, with the site's own measurements beside it)."""
