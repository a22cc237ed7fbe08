import torch
from torch import nn

# Count what autograd keeps for a future backward pass. The pack hook gets
# every tensor autograd saves and returns a token that counts itself while
# autograd holds it. (We never call backward here, so the token does not need
# to hold the tensor itself.)
live = 0


class Token:
    def __init__(self, saved_tensor):
        global live
        live += 1

    def __del__(self):
        global live
        live -= 1


model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
batches = [torch.randn(4, 8) for _ in range(5)]

# --8<-- [start:gist]
with torch.autograd.graph.saved_tensors_hooks(Token, lambda token: None):
    preds = [model(x) for x in batches]  # evaluation without no_grad
    kept = live
    del preds
    after_del = live
    with torch.no_grad():
        preds = [model(x) for x in batches]
    with_no_grad = live
    preds = [model(x).detach() for x in batches]
    with_detach = live
# --8<-- [end:gist]
    total_loss = 0
    for x in batches:  # a running sum of losses keeps every graph too
        total_loss += model(x).pow(2).mean()
    with_running_sum = live

# --8<-- [start:gist]
assert kept == 5 * 4 and after_del == 0
assert with_no_grad == 0 and with_detach == 0
# --8<-- [end:gist]
assert with_running_sum > kept
print("saved for backward, 5 outputs kept in a list:", kept)
print("after `del preds`                           :", after_del)
print("outputs computed under torch.no_grad()      :", with_no_grad)
print("outputs .detach()-ed before storing         :", with_detach)
print("a running total_loss += loss over 5 batches :", with_running_sum)
