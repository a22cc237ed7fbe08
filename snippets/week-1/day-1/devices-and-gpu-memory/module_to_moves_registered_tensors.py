import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        # --8<-- [start:gist]
        self.lin = torch.nn.Linear(3, 3)  # parameters: moved by .to
        self.register_buffer("scale", torch.ones(3))  # buffer: moved
        self.mask = torch.ones(3)  # plain attribute: NOT moved
        # --8<-- [end:gist]


# --8<-- [start:gist]
net = Net()
assert net.to("meta") is net  # Module.to works in place, returns self

assert net.lin.weight.device.type == "meta"
assert net.scale.device.type == "meta"
assert net.mask.device.type == "cpu"  # left behind
# --8<-- [end:gist]

x = torch.ones(2, 3)
# --8<-- [start:gist]
x.to("meta")  # Tensor.to returns a NEW tensor; x itself does not move
assert x.device.type == "cpu"
# --8<-- [end:gist]
x = x.to("meta")  # the result has to be assigned
assert x.device.type == "meta"

# an implicit exception: a 0-dim CPU tensor mixes with any device
y = x * torch.tensor(2.0)
assert y.device.type == "meta"

print("parameter:", net.lin.weight.device, "| buffer:", net.scale.device,
      "| plain attribute:", net.mask.device)
print("x * cpu scalar tensor ->", y.device)
