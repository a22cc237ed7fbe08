# expect: Dynamo captured your clip_to_norm in 2 graphs with 1 graph breaks (generic_jump
# The mistake: .item() removed, but the if still asks for the tensor's value.
def clip_to_norm(x, max_norm):
    norm = x.norm()
    if norm > max_norm:
        return x * (max_norm / norm)
    return x
