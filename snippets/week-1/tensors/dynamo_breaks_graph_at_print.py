import torch
import torch._dynamo as dynamo


def fn(x):
    y = x.sin().cos()
    print("Python side effect")  # Dynamo cannot put this in a graph
    return y * 2


x = torch.ones(4)
report = dynamo.explain(fn)(x)  # trace with Dynamo only, no compilation

assert report.graph_count == 2  # one FX graph before print, one after
assert report.graph_break_count == 1
reason = report.break_reasons[0].reason.splitlines()
assert reason[0] == "Failed to trace builtin operator"
assert "`print`" in reason[1]
print("graphs:", report.graph_count, "| breaks:", report.graph_break_count)
print("break reason:", reason[0])
print(reason[1].strip())
