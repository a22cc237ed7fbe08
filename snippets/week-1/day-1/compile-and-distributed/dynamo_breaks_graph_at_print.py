import torch
import torch._dynamo as dynamo
from torch._dynamo.exc import Unsupported
from torch._dynamo.testing import CompileCounter


# --8<-- [start:gist]
def fn(x):
    y = x.sin().cos()
    print("Python side effect")  # Dynamo cannot put this in a graph
    return y * 2
# --8<-- [end:gist]


x = torch.ones(4)
# --8<-- [start:gist]
report = dynamo.explain(fn)(x)  # trace with Dynamo only, no compilation

assert report.graph_count == 2  # one FX graph before print, one after
# --8<-- [end:gist]
assert report.graph_break_count == 1
reason = report.break_reasons[0].reason.splitlines()
assert reason[0] == "Failed to trace builtin operator"
assert "`print`" in reason[1]

# fullgraph=True turns the graph break into an error
try:
    torch.compile(fn, fullgraph=True)(x)
    raise AssertionError("expected a graph-break error")
except Unsupported as e:
    error = e
assert str(error).splitlines()[0] == reason[0]

# guards: the graph is reused while they hold, recompiled when one fails
counter = CompileCounter()  # a backend that only counts compilations
g = torch.compile(lambda t: t.sin() * 2, backend=counter)
# --8<-- [start:gist]
g(torch.ones(4))
g(torch.ones(4))
assert counter.frame_count == 1  # same dtype and shape: reused
g(torch.ones(4, dtype=torch.float64))
assert counter.frame_count == 2  # the dtype guard failed: recompiled
# --8<-- [end:gist]

print("graphs:", report.graph_count, "| breaks:", report.graph_break_count)
print("break reason:", reason[0])
print(reason[1].strip())
print("fullgraph=True raises:", type(error).__name__)
print("compilations after float32, float32, float64 calls:",
      counter.frame_count)
