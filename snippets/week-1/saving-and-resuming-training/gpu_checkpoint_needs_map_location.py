import torch
import torch.serialization
from torch import nn

model = nn.Linear(4, 2)
# Each storage in a checkpoint carries the device it was saved from: on a
# GPU, "cuda:0". Tag this CPU model's storages so, as a GPU save does.
torch.serialization.register_package(
    1, lambda storage: "cuda:0", lambda storage, location: None)
torch.save(model.state_dict(), "trained_on_gpu.pt")

torch.cuda.is_available = lambda: False  # load as on a machine with no GPU
# --8<-- [start:gist]
try:
    torch.load("trained_on_gpu.pt")  # restores each storage where it was
except RuntimeError as error:
    message = str(error)
assert message.startswith("Attempting to deserialize object on a CUDA")
state = torch.load("trained_on_gpu.pt", map_location="cpu")
assert state["weight"].device.type == "cpu"
# --8<-- [end:gist]
assert torch.equal(state["weight"], model.weight)
print("without map_location:", message.split(". ")[0] + ".")
print("map_location='cpu':", state["weight"].device, "| same weights:", True)
