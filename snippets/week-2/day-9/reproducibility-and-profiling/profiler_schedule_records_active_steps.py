import json
from pathlib import Path

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile, record_function, schedule

model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
traces = []


def save_trace(prof):  # called once per cycle, when its active steps end
    path = f"trace_{prof.step_num}.json"
    prof.export_chrome_trace(path)  # open in Perfetto or chrome://tracing
    traces.append(path)


# --8<-- [start:gist]
with profile(activities=[ProfilerActivity.CPU],  # + CUDA on a GPU
             schedule=schedule(wait=1, warmup=1, active=2, repeat=1),
             on_trace_ready=save_trace) as prof:
    for _ in range(6):
        with record_function("forward_backward"):  # a label of our own
            model(torch.randn(32, 64)).sum().backward()
        opt.step()
        prof.step()  # tells the schedule that a step ended
# --8<-- [end:gist]
events = json.loads(Path(traces[0]).read_text())["traceEvents"]
steps = sorted({e["name"] for e in events if e["name"].startswith("Profiler")})
# --8<-- [start:gist]
assert traces == ["trace_4.json"]  # one trace, after steps 2 and 3
assert steps == ["ProfilerStep#2", "ProfilerStep#3"]  # the active ones
# --8<-- [end:gist]
names = {e["name"] for e in events}
assert {"forward_backward", "aten::addmm", "Optimizer.step#SGD.step"} <= names
print("traces written:", traces)
print("steps in the trace:", steps)
ops = prof.key_averages()
counts = {e.key: e.count for e in ops if e.key in
          ("forward_backward", "aten::addmm", "aten::mm")}
print("calls recorded in the 2 active steps:", counts)
