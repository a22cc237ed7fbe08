# expect: for x (2, 3), hidden size 4 (torch.float32, seed 5, forget-gate bias of 1) your h_next is
# The mistake: the output gate applied to the cell state itself, without its tanh.
import torch


def lstm_cell(x, h, c, w_ih, w_hh, b_ih, b_hh):
    gates = x @ w_ih.T + h @ w_hh.T
    if b_ih is not None:
        gates = gates + b_ih + b_hh
    i, f, g, o = gates.chunk(4, dim=1)
    c_next = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * c_next, c_next
