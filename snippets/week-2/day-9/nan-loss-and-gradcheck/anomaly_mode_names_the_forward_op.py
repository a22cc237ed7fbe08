# docexec: raises=RuntimeError match="'LogBackward0' returned nan values"
import re
import warnings

import torch


def print_anomaly_report(caught: list[warnings.WarningMessage]) -> None:
    """Print the warning's first line and the snippet line it points at."""
    for w in caught:
        text = str(w.message)
        if text.startswith("Error detected"):
            *_, (line, code) = re.findall(r'line (\d+), in .*\n\s+(.*)', text)
            print("warning:", text.splitlines()[0])
            print(f"  line {line}: {code}")


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        # --8<-- [start:gist]
        x = torch.tensor([0.0, 1.0, 3.0], requires_grad=True)
        with torch.autograd.detect_anomaly():  # around forward AND backward
            masked_log = torch.where(x > 0, torch.log(x), 0.0)
            loss = masked_log.sum()
            assert torch.isfinite(loss)  # the loss itself is fine
            print("loss:", round(loss.item(), 4))
            loss.backward()  # raises: log's backward computes 0 / 0 at x = 0
        # --8<-- [end:gist]
    finally:
        print_anomaly_report(caught)
