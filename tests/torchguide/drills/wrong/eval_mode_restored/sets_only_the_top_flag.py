# expect: for a Sequential in training mode your context manager leaves 0 (Linear), 1 (BatchNorm1d), 2 (ReLU), 3 (Dropout), 4 (Linear) in training mode inside the with block
# The mistake: model.training = False changes the model's flag only; its BatchNorm and Dropout still train.
from contextlib import contextmanager


@contextmanager
def evaluating(model):
    was_training = model.training
    model.training = False
    try:
        yield model
    finally:
        model.training = was_training
