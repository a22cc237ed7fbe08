"""docexec: executes documentation snippets in isolated processes and caches their results."""
