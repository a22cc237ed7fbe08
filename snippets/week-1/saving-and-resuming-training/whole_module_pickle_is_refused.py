import pickle

import torch
from torch import nn

torch.save(nn.Linear(4, 2), "whole_model.pt")  # pickles the module itself
# --8<-- [start:gist]
try:  # weights_only=True, the default since 2.6: tensors and plain data
    torch.load("whole_model.pt")
except pickle.UnpicklingError as error:
    refused, reason = str(error).split(".")[0], str(error)
assert refused == "Weights only load failed" and "PyTorch 2.6" in reason
# --8<-- [end:gist]
print("torch.load of a pickled module:", refused)
whole = torch.load("whole_model.pt", weights_only=False)  # trusted files only
assert isinstance(whole, nn.Linear)
print("with weights_only=False:", type(whole).__name__)
