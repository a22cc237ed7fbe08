import warnings

import torch

x = torch.tensor([0.0, 1.0, 3.0], requires_grad=True)
loss = torch.where(x > 0, torch.log(x), 0.0).sum()  # forward: no anomaly mode

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.autograd.set_detect_anomaly(True)  # switched on for backward only
    try:
        loss.backward()
    except RuntimeError as error:
        print("RuntimeError:", error)
    finally:
        torch.autograd.set_detect_anomaly(False)

messages = [str(w.message) for w in caught]
report = next(m for m in messages if m.startswith("Error detected"))
assert "No forward pass information available" in report
print("warning:", report.split(" (Triggered")[0])
