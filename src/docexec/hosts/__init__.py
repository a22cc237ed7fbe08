"""The programs that host the engine: MkDocs (and its fork ProperDocs), pytest, the ``docexec``
command line and the live preview. Each only wires its host's events to `docexec.site` and
`docexec.execution`; the ``DOCEXEC_*`` variables are read here, not by the engine."""
