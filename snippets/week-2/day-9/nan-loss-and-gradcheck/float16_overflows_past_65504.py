import torch

activations = torch.tensor([200.0, 300.0])
for dtype in (torch.float16, torch.bfloat16, torch.float32):
    squares = activations.to(dtype) ** 2
    print(f"{str(dtype):<15} max {torch.finfo(dtype).max:9.3g}"
          f"  x**2 = {squares.tolist()}")

assert torch.isinf(activations.half() ** 2).tolist() == [False, True]
# bfloat16 has float32's exponent range: no overflow, fewer digits
assert torch.isfinite(activations.bfloat16() ** 2).all()
assert torch.finfo(torch.bfloat16).max > 1e38
