import torch

# "cuda" names no GPU: its index is left open, to be filled in when a
# tensor is placed, with the current device
cuda = torch.device("cuda")
assert cuda.index is None and cuda != torch.device("cuda", 0)
print(f"torch.device('cuda'): type {cuda.type!r}, index {cuda.index}")
print("torch.device('cuda') == torch.device('cuda:0'):",
      cuda == torch.device("cuda", 0))

# Tensor.cuda() without an argument is documented the same way
doc = " ".join(torch.Tensor.cuda.__doc__.split())
assert "Defaults to the current CUDA device." in doc
print("Tensor.cuda(device=None):", doc[doc.index("Defaults"):].split(".")[0])
