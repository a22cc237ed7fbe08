# expect: for Linear(4, 3) in torch.float32 with amsgrad=False you counted 240 bytes; after one step there are 248, of which parameters 60, gradients 60, Adam's state 128
# The mistake: the rule of thumb, 16 bytes a parameter (4 for the weight, 4 for its gradient and
# 8 for Adam's two moments), applied to every parameter: it forgets Adam's step counters, and is
# wrong for frozen parameters and for any dtype but float32.
def training_bytes(model, amsgrad):
    return 16 * sum(p.numel() for p in model.parameters())
