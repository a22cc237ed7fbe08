# docexec: raises=RuntimeError match="backward through the graph a second time"
import torch
from torch import nn

cell = nn.RNNCell(4, 8)
optimizer = torch.optim.SGD(cell.parameters(), lr=0.01)
hidden = torch.zeros(2, 8)

# --8<-- [start:gist]
for step in range(2):
    hidden = cell(torch.randn(2, 4), hidden)
    # the fix: hidden = cell(torch.randn(2, 4), hidden.detach())
    loss = hidden.pow(2).mean()
    optimizer.zero_grad()
    print(f"step {step}: backward")
    loss.backward()  # step 1 reaches back into step 0's freed graph
    optimizer.step()
# --8<-- [end:gist]
