# expect: (left as it is, torch.float32, seed 1) your output is
# The mistake: break-free by scaling every tensor to max_norm, small ones up too.
def clip_to_norm(x, max_norm):
    return x * (max_norm / x.norm())
