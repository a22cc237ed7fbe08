def saliency(model, image, target):
    """A saliency map from the gradient of the class score."""
    raise NotImplementedError
