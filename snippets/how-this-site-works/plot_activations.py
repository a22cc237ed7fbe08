import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F

x = torch.linspace(-3, 3, 121)
relu, gelu = F.relu(x), F.gelu(x)
# GELU is smooth and dips below zero; ReLU is exactly zero for x < 0.
assert torch.all(relu[x < 0] == 0)
assert gelu.min() < 0

fig, ax = plt.subplots(figsize=(4.8, 3))
ax.plot(x, relu, label="ReLU")
ax.plot(x, gelu, label="GELU")
ax.set(title="Two activations", xlabel="input", ylabel="output")
ax.legend()
print(f"smallest GELU value: {gelu.min().item():.4f}")
