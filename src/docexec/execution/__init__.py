"""Running snippets with their results cached, from outside their processes: the engine (the one
entry point), the cache, the pool of warm servers that fork one process per snippet, the
supervisor that watches each, the process tree it ends, and the jobs and results that cross
between them. What runs inside a snippet's process is `docexec.sandbox`.

Any change to this folder or to `docexec.sandbox` changes every cache key (`engine`): their code
decides what a snippet prints and how its run is judged.
"""
