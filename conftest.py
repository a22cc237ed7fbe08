pytest_plugins = ["docexec.hosts.pytest_plugin"]
