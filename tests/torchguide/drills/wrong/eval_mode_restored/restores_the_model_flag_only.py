# expect: for a Sequential in training mode but for 1 (BatchNorm1d) in eval mode your context manager puts 1 (BatchNorm1d) in training mode after the with block; it was in eval mode before
# The mistake: model.train(was) sets every submodule to the model's flag, and unfreezes a frozen BatchNorm.
from contextlib import contextmanager


@contextmanager
def evaluating(model):
    was_training = model.training
    model.eval()
    try:
        yield model
    finally:
        model.train(was_training)
