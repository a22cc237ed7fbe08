from contextlib import contextmanager

from torchguide.drills import check_here


@contextmanager
def evaluating(model):
    # each module's own flag: model.train(flag) would set them all alike
    modes = [(module, module.training) for module in model.modules()]
    model.eval()
    try:
        yield model
    finally:  # runs on an exception too, which then goes on to the caller
        for module, training in modes:
            module.training = training


check_here("eval_mode_restored", evaluating)
