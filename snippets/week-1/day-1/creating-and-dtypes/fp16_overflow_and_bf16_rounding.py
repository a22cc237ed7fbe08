import torch

# --8<-- [start:gist]
big = torch.tensor([65504.0, 70000.0])
assert torch.isinf(big.half()[1]) and not torch.isinf(big.bfloat16()).any()
assert torch.isinf(torch.tensor(65504.0, dtype=torch.float16) * 2)
# --8<-- [end:gist]
print("float16 :", big.half())
print("bfloat16:", big.bfloat16())
print("float16 65504 * 2:", torch.tensor(65504.0, dtype=torch.float16) * 2)

# bfloat16's coarse spacing: above 256 the gap between numbers is 2
# --8<-- [start:gist]
assert torch.tensor(257.0).bfloat16().item() == 256.0
assert torch.tensor(257.0).half().item() == 257.0
# --8<-- [end:gist]
print("257 as bfloat16:", torch.tensor(257.0).bfloat16().item(),
      "| as float16:", torch.tensor(257.0).half().item())

# bfloat16 is the upper half of float32's bit pattern, but converting ROUNDS
# to nearest instead of truncating the lower 16 bits.
# --8<-- [start:gist]
third = torch.tensor(1 / 3)
bits = third.view(torch.int32).item()
truncated = torch.tensor((bits >> 16) << 16, dtype=torch.int32)
truncated = truncated.view(torch.float32).item()
rounded = third.bfloat16().float().item()
assert rounded == 0.333984375 and truncated == 0.33203125
assert abs(rounded - 1 / 3) < abs(truncated - 1 / 3)
# --8<-- [end:gist]
# the stored bfloat16 bits are the upper 16 bits of that rounded float32
upper = torch.tensor(rounded).view(torch.int32).item() >> 16
assert third.bfloat16().view(torch.int16).item() & 0xFFFF == upper
print(f"1/3 -> bfloat16: {rounded} (truncation would give {truncated})")
