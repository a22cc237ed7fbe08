pytest_plugins = ["docexec.pytest_plugin"]
