import torch

logits = torch.tensor([2.0, 1.0, 0.0])
for temperature in (0.5, 1.0, 2.0):
    probs = (logits / temperature).softmax(-1)
    print(f"T={temperature}: {[round(p, 3) for p in probs.tolist()]}")
cold = (logits / 0.01).softmax(-1)
hot = (logits / 100.0).softmax(-1)
assert cold.argmax() == logits.argmax() and cold.max() > 0.999  # greedy
assert torch.allclose(hot, torch.full((3,), 1 / 3), atol=0.01)  # uniform
