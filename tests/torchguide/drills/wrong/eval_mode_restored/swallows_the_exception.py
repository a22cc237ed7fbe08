# expect: for a Sequential in training mode and an exception raised inside the with block the exception did not reach the caller: your context manager swallowed it
# The mistake: `except Exception: pass` around the yield hides the error in the evaluation code.
from contextlib import contextmanager


@contextmanager
def evaluating(model):
    modes = [(module, module.training) for module in model.modules()]
    model.eval()
    try:
        yield model
    except Exception:
        pass
    finally:
        for module, training in modes:
            module.training = training
