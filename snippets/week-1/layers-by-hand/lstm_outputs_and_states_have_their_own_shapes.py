import torch
from torch import nn

batch, length, features, hidden, layers = 4, 7, 3, 5, 2
# --8<-- [start:gist]
lstm = nn.LSTM(features, hidden, num_layers=layers, batch_first=True)
x = torch.randn(batch, length, features)  # (B, L, F): batch_first
output, (h_n, c_n) = lstm(x)
# --8<-- [end:gist]
assert output.shape == (batch, length, hidden)  # last layer, every step
assert h_n.shape == c_n.shape == (layers, batch, hidden)  # never batch-first
assert torch.equal(output[:, -1], h_n[-1])  # one direction: the same
print("x      ", tuple(x.shape), "(batch, length, features)")
print("output ", tuple(output.shape), "(batch, length, hidden)")
print("h_n    ", tuple(h_n.shape), "(layers, batch, hidden), even batch_first")
print("output[:, -1] == h_n[-1]:", torch.equal(output[:, -1], h_n[-1]))
