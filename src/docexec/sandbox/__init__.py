"""Everything that runs inside a snippet's own process, forked from a warm server or started as a
subprocess: set up its confinement, run the snippet cell by cell, record what it prints and draws.

Code here runs after the fork, under rules of its own: the process has one thread when
`restrictions.enter` runs (Landlock and unshare(2) apply to one thread), and it leaves with
``os._exit`` so that no parent's clean-up runs twice.

Each restriction, where it is enforced, and how a breach is reported:

- Environment variables: an allow-list (`environment`), set before the snippet starts; what is
  not passed on is simply absent.
- Other processes' environments hidden, shared memory counted against ``memory=``, no network
  unless declared, file size limited to ``memory=``, no capabilities: kernel namespaces and limits
  entered by `restrictions.enter`; a breach is the snippet's own exception (PermissionError,
  ``OSError: File too large``, a refused connection), shown with its line.
- Writes only in the snippet's own folders: Landlock (`read_only_project`); where the kernel has
  none, the supervisor compares the project before and after (`docexec.execution.project_writes`)
  and fails the result naming the files.
- Time and memory of all its processes together: watched from outside, by the supervisor
  (`docexec.execution.supervisor`); the result says "timed out" or "exceeded its memory".
- The same random state in every snippet: `seeding`, also for libraries imported later.

A restriction the machine cannot enforce is named in the build report and once on the console
(`restrictions.unenforced`); ``python -m docexec.sandbox`` exits 1 naming each.
"""
