import torch
from torch import nn

hidden = 5
lstm = nn.LSTM(3, hidden, batch_first=True, bidirectional=True)
x = torch.randn(2, 6, 3)
output, (h_n, _) = lstm(x)
# --8<-- [start:gist]
forward_last = output[:, -1, :hidden]  # the forward pass ends at the last step
backward_last = output[:, 0, hidden:]  # the backward pass ends at step 0
assert torch.equal(h_n[0], forward_last)
assert torch.equal(h_n[1], backward_last)
assert not torch.allclose(h_n[1], output[:, -1, hidden:])
summary = torch.cat([h_n[0], h_n[1]], dim=1)  # (B, 2H): both final states
# --8<-- [end:gist]
print("output", tuple(output.shape), "h_n", tuple(h_n.shape))
print("h_n[1] == output[:, 0, H:] (backward's end):",
      torch.equal(h_n[1], backward_last))
print("h_n[1] == output[:, -1, H:]:",
      torch.allclose(h_n[1], output[:, -1, hidden:]))
print("summary of each sequence:", tuple(summary.shape))
