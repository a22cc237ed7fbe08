import torch

# Defaults: Python floats -> the default dtype, Python ints -> int64
assert torch.get_default_dtype() == torch.float32
# --8<-- [start:gist]
assert torch.tensor([1.5]).dtype == torch.float32
assert torch.tensor([1]).dtype == torch.int64
# --8<-- [end:gist]
print("default dtype:", torch.get_default_dtype())
print("torch.tensor([1]).dtype:", torch.tensor([1]).dtype)

i64 = torch.ones(2, dtype=torch.int64)
f16 = torch.ones(2, dtype=torch.float16)
bf16 = torch.ones(2, dtype=torch.bfloat16)
f32 = torch.ones(2)
f64_scalar = torch.tensor(2.5, dtype=torch.float64)  # a 0-dim tensor

# --8<-- [start:gist]
cases = {
    "int64 + 2.5": (i64, 2.5, torch.float32),
    "float16 + float32": (f16, f32, torch.float32),
    "float16 + bfloat16": (f16, bf16, torch.float32),
    "float16 + 2.5": (f16, 2.5, torch.float16),
    "float16 + 0-dim float64": (f16, f64_scalar, torch.float16),
}
for name, (a, b, expected) in cases.items():
    assert torch.result_type(a, b) == expected == (a + b).dtype
    print(f"{name:<24} -> {torch.result_type(a, b)}")
# --8<-- [end:gist]

# In-place ops cannot change the dtype of their target
try:
    i64 += 0.5
    raise AssertionError("expected a RuntimeError")
except RuntimeError as e:
    assert "can't be cast to the desired output type" in str(e)
    print("int64 += 0.5:", e)
assert i64.dtype == torch.int64
