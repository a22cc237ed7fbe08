# docexec: measured
import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile

model = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 1))
batch = torch.randn(128, 256)
# --8<-- [start:gist]
with profile(activities=[ProfilerActivity.CPU]) as prof:
    for _ in range(3):
        model(batch).sum().backward()
table = prof.key_averages().table(sort_by="self_cpu_time_total",
                                  row_limit=6, max_name_column_width=24)
# --8<-- [end:gist]
assert "Self CPU %" in table and "# of Calls" in table
# self time excludes children: an op's own share, which the ranking needs
averages = {e.key: e for e in prof.key_averages()}
linear = averages["aten::linear"]
assert linear.self_cpu_time_total < linear.cpu_time_total
print(table)
