"""Measurements that print figures and assert nothing: ``python -m docexec.tools.bench`` and
``python -m docexec.tools.page_heights`` (``make bench`` runs both)."""
