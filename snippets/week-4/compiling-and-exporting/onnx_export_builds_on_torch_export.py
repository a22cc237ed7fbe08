import inspect

import torch

default = inspect.signature(torch.onnx.export).parameters["dynamo"].default
try:
    torch.onnx.export(torch.nn.Linear(2, 2), (torch.randn(1, 2),), None)
    missing = ""
except ModuleNotFoundError as error:
    missing = error.name
assert default is True and missing == "onnxscript"
print(f"torch.onnx.export(..., dynamo={default}) by default")
print(f"without it installed: No module named {missing!r}")
