# docexec: raises=RuntimeError match="modified by an inplace operation"
import torch
from torch import nn

cell = nn.RNNCell(4, 8)
optimizer = torch.optim.SGD(cell.parameters(), lr=0.01)
hidden = torch.zeros(2, 8)

# --8<-- [start:gist]
for step in range(3):
    hidden = cell(torch.randn(2, 4), hidden)
    loss = hidden.pow(2).mean()
    optimizer.zero_grad()
    print(f"step {step}: backward through steps 0 to {step}")
    # the "fix": keeps every earlier step's graph, and the weights it saved
    loss.backward(retain_graph=True)
    optimizer.step()  # updates those weights in place: step 2 finds them
# --8<-- [end:gist]
