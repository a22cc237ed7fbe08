# expect: for x (2, 1), hidden size 1 (torch.float64, seed 6) your h_next is
# The mistake: one bias added, as one would write it by hand; nn.LSTMCell keeps two.
import torch


def lstm_cell(x, h, c, w_ih, w_hh, b_ih, b_hh):
    gates = x @ w_ih.T + h @ w_hh.T
    if b_ih is not None:
        gates = gates + b_ih
    i, f, g, o = gates.chunk(4, dim=1)
    c_next = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c_next), c_next
