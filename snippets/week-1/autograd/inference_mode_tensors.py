# docexec: raises=RuntimeError match="Inference tensors cannot be saved"
import torch

w = torch.ones(3, requires_grad=True)
with torch.inference_mode():
    feats = w * 2  # no graph and no version counter
assert not feats.requires_grad and feats.is_inference()
try:
    print(feats._version)
except RuntimeError as e:
    print("feats._version:", e)
print("requires_grad:", feats.requires_grad,
      "| is_inference:", feats.is_inference())

(feats + w).sum().backward()  # fine: add saves neither input
assert torch.equal(w.grad, torch.ones(3))
print("(feats + w).sum().backward() works: add saves neither input")
w.grad = None

safe = feats.clone()  # a clone made outside is a normal tensor
(safe * w).sum().backward()
assert torch.equal(w.grad, torch.full((3,), 2.0))
print("clone() made it usable with autograd; w.grad =", w.grad)

(feats * w).sum().backward()  # mul must save feats for backward: fails
