# docexec: timeout=60
import torch
from torch.autograd import DeviceType
from torch.profiler import ProfilerActivity, profile, supported_activities

layer = torch.nn.Linear(64, 32).to(torch.bfloat16)
x = torch.randn(16, 64, dtype=torch.bfloat16)

with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    layer(x)

events = prof.key_averages(group_by_input_shape=True)
assert {e.device_type for e in events} == {DeviceType.CPU}
assert all(e.key.startswith("aten::") for e in events)
print("activities this build can record:",
      sorted(a.name for a in supported_activities()))
print(f"{'operator':18} {'calls':>5}  input shapes")
for e in events:
    print(f"{e.key:18} {e.count:5}  {e.input_shapes}")
