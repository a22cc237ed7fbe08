"""Everything that runs inside a snippet's own process, forked from a warm server or started as a
subprocess: set up its confinement, run the snippet cell by cell, record what it prints and draws.

Code here runs after the fork, under rules of its own: the process has one thread when
`restrictions.enter` runs (Landlock and unshare(2) apply to one thread), and it leaves with
``os._exit`` so that no parent's clean-up runs twice.

Each restriction, where it is enforced, and how a breach is reported:

- Environment variables: an allow-list (`environment`), set before the snippet starts; what is
  not passed on is simply absent.
- Other processes' environments and command lines hidden, shared memory counted against
  ``memory=``, no network unless declared, file size limited to ``memory=``, no capabilities:
  kernel namespaces and limits entered by `restrictions.enter`; a breach is the snippet's own
  exception (PermissionError, ``OSError: File too large``, a refused connection), shown with its
  line.
- Writes only in the snippet's own folders: Landlock (`read_only_project`); where the kernel has
  none, the supervisor compares the project before and after (`docexec.execution.project_writes`)
  and fails the result naming the files.
- Only its own processes in sight: a PID namespace and a ``/proc`` of its own
  (`pid_namespace`); another process's PID does not exist there (ProcessLookupError). Its first
  process adopts the snippet's orphans, and when it ends the kernel ends all that is left. That
  process is not dumpable and holds only the pipe of the snippet's status: the snippet can neither
  trace it nor take that pipe (``pidfd_getfd``) to report a crash as a success (EPERM).
- Signals and abstract sockets only among the snippet's own processes: Landlock's scopes, in the
  same ruleset (Linux 6.12), and the PID namespace for signals on any kernel that makes one;
  PermissionError or a refused connection.
- Sockets in the file system (a Docker or D-Bus socket): those bound when the snippet starts are
  covered in its mount namespace (`restrictions`); a connection is refused.
- ``/etc/shadow``, ``/etc/gshadow``, the home of the user the build runs as and ``/root`` (but
  for the project, Python and what else the snippet needs of them, bound back in) and the
  project's ``.git``: covered in its mount namespace; they read as empty, missing or refused.
- Time, and memory of all its processes together with what its ``/dev/shm`` and its folders on
  disk hold (every file, however many: past 200,000 the snippet is stopped) and the memfds and
  removed files only its processes hold, open or mapped: watched from outside, by the supervisor
  (`docexec.execution.supervisor`), sampled twice a second; the result says "timed out" or
  "exceeded its memory". System V shared memory is its own IPC namespace's: it ends with the
  snippet, and as root a segment ends once no process has it attached (then it was counted). The
  engine keeps its own deadline too (`docexec.execution.pool`): a supervisor that stops
  reporting is killed at the timeout and a grace.
- What it prints and draws: at most 100,000 characters (head and tail) and 20 figures, 10 MiB
  together (`capture`), checked again when the engine reads the record, which the snippet could
  have written itself (`docexec.execution.result`); an SVG is published only when nothing in it is
  off an allow-list (`docexec.execution.inert_svg`).
- The same random state in every snippet: `seeding`, also for libraries imported later.

What it does not promise:

- Reads. A snippet reads what its user may read, but for the files above: the standard library,
  torch and the project's library must be importable, and the project's other files are public
  in the repository anyway. Run builds as a user that holds nothing secret on its disk.
- A socket file or process made after the snippet started is not covered by the mount namespace
  (another snippet's sockets in its own temporary folder, a daemon started meanwhile); where
  Landlock has no scopes (before Linux 6.12) and no PID namespace could be made either, a
  snippet can signal any process of its user; without scopes it connects to abstract sockets
  where no network namespace could be made.
- Built by a user without root, the supervisor cannot see the size of a memfd that only a
  mapping holds (``/proc/<pid>/map_files`` is root's): what is mapped of it counts; and a System V
  segment that no process has attached is not counted until the snippet ends, which ends it.
- The record of the snippet's output is written by its own process: a snippet can forge what it
  printed, and end its process early (``os._exit(0)``) after forging its end. The record is
  checked as untrusted input (figures, sizes, names, an end only from a process that exited 0),
  never believed as proof: review a snippet as code.

A restriction the machine cannot enforce is named in the build report and once on the console
(`restrictions.unenforced`); ``python -m docexec.sandbox`` exits 1 naming each.
"""
