# expect: for a Sequential in training mode and an exception raised inside the with block your context manager leaves the model in eval mode after the with block
# The mistake: code after a bare `yield` does not run when the block raises.
from contextlib import contextmanager


@contextmanager
def evaluating(model):
    modes = [(module, module.training) for module in model.modules()]
    model.eval()
    yield model
    for module, training in modes:
        module.training = training
