import torch

modes = torch._inductor.list_mode_options()
for mode in ("default", "reduce-overhead", "max-autotune"):
    print(f"{mode:16} {modes[mode]}")
assert modes["reduce-overhead"] == {"triton.cudagraphs": True}
assert modes["max-autotune"]["max_autotune"] is True
