import torch
from torch import nn

cell = nn.RNNCell(4, 8)
optimizer = torch.optim.SGD(cell.parameters(), lr=0.01)
sequence = torch.randn(12, 2, 4)  # 12 time steps, batch of 2
CHUNK = 4  # steps backpropagated through together


def steps_in_graph(loss: torch.Tensor) -> int:
    """The RNN steps that loss.backward() would run through (one tanh each)."""
    seen, todo = set(), [loss.grad_fn]
    while todo:
        node = todo.pop()
        if node is not None and node not in seen:
            seen.add(node)
            todo += [next_fn for next_fn, _ in node.next_functions]
    return sum(type(node).__name__ == "TanhBackward0" for node in seen)


before = cell.weight_hh.clone()
# --8<-- [start:gist]
hidden = torch.zeros(2, 8)
for start in range(0, 12, CHUNK):
    hidden = hidden.detach()  # keep the value, cut the graph to last chunk
    loss = 0
    for x in sequence[start:start + CHUNK]:
        hidden = cell(x, hidden)
        loss = loss + hidden.pow(2).mean()
    assert steps_in_graph(loss) == CHUNK  # never reaches an earlier chunk
    optimizer.zero_grad()
    loss.backward()  # no retain_graph: this chunk's graph is freed
    optimizer.step()
    # --8<-- [end:gist]
    print(f"steps {start}-{start + CHUNK - 1}: backward through "
          f"{steps_in_graph(loss)} steps")
assert not torch.equal(before, cell.weight_hh)  # it trained, three updates
print("12 steps in 3 chunks, three optimizer steps, no error")
