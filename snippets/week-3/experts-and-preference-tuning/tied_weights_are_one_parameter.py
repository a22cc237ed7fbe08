import torch
from torch import nn

vocab, width = 100, 16
embed = nn.Embedding(vocab, width)
head = nn.Linear(width, vocab, bias=False)
# --8<-- [start:gist]
head.weight = embed.weight  # the same Parameter, (vocab, width)
model = nn.ModuleDict({"embed": embed, "head": head})
params = list(model.parameters())  # deduplicated
state = model.state_dict()  # both names, one storage
optimizer = torch.optim.AdamW(model.parameters())
# --8<-- [end:gist]
assert len(params) == 1 and params[0] is embed.weight
assert set(state) == {"embed.weight", "head.weight"}
assert state["embed.weight"].data_ptr() == state["head.weight"].data_ptr()
assert len(optimizer.param_groups[0]["params"]) == 1
tokens = torch.tensor([[1, 2, 3]])
model["head"](model["embed"](tokens)).sum().backward()
used = embed.weight.grad.abs().sum(dim=1) > 0
assert used.all()  # the head's gradient reaches every row, on top of 1..3
print("parameters():", len(params), "| state_dict keys:", sorted(state))
print("optimizer tensors:", len(optimizer.param_groups[0]["params"]))
print("rows with a gradient:", int(used.sum()), "of", vocab)
