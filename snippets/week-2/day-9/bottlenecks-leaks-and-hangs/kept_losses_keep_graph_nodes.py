# docexec: timeout=60
from collections import Counter

import torch
from torch import nn

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x, y = torch.randn(32, 8), torch.randn(32, 1)


def graph_nodes(tensors):
    """The autograd nodes that the given tensors keep reachable."""
    seen, todo = set(), [t.grad_fn for t in tensors]
    while todo:  # autograd has no public "list the graph"; walk it
        node = todo.pop()
        if node is not None and node not in seen:
            seen.add(node)
            todo += [nxt for nxt, _ in node.next_functions]
    return seen


def train(steps, keep):
    kept = []
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        kept.append(keep(loss))
    return kept


# --8<-- [start:gist]
losses = train(10, keep=lambda loss: loss)
one_step = graph_nodes(losses[:1])
names = Counter(type(node).__name__ for node in one_step)
# one AccumulateGrad node per parameter, shared by every step's graph
new_per_step = len(one_step) - names["AccumulateGrad"]
assert len(graph_nodes(losses)) == 10 * new_per_step + 4
# --8<-- [end:gist]

# backward() already freed the saved activations; the nodes stay
relu = next(n for n in one_step if type(n).__name__ == "ReluBackward0")
freed = False
try:
    saved = relu._saved_result  # raises once backward() has run
except RuntimeError as error:
    freed = "already been freed" in str(error)
assert freed
print("one step's graph:", dict(sorted(names.items())))
print("nodes kept alive by 10 kept losses:", len(graph_nodes(losses)))
print("their saved activations were freed by backward():", freed)

# --8<-- [start:gist]
floats = train(10, keep=lambda loss: loss.item())
assert all(type(value) is float for value in floats)
# --8<-- [end:gist]
print("kept by 10 loss.item() values: no tensors, no nodes:",
      [round(value, 4) for value in floats[:2]])
