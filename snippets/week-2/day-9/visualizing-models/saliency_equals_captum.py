# docexec: timeout=60
import torch
from captum.attr import Saliency
from torchguide.debug.attribution import saliency
from torchguide.debug.toyvision import bar_images, train_tiny_cnn

SEED = torch.initial_seed()
train, test = bar_images(600, seed=SEED), bar_images(300, seed=SEED + 1)
model = train_tiny_cnn(train.images, train.labels)

# Vanilla gradient saliency, by hand:
# --8<-- [start:gist]
x = test.images.clone().requires_grad_()
scores = model(x)  # class scores (logits), shape (300, 4)
true_class_scores = scores.gather(1, test.labels[:, None])
# --8<-- [end:gist]
# Samples do not interact, so one backward of the sum gives every
# sample the gradient of its own score.
# --8<-- [start:gist]
true_class_scores.sum().backward()
by_hand = x.grad.abs()
# --8<-- [end:gist]

# --8<-- [start:gist]
with_captum = Saliency(model).attribute(
    test.images.clone().requires_grad_(), target=test.labels
)  # abs=True is captum's default
with_torchguide = saliency(model, test.images, target=test.labels)

assert torch.equal(by_hand, with_captum)
assert torch.equal(by_hand, with_torchguide)
# --8<-- [end:gist]
print("maps:", tuple(by_hand.shape), "(one per input element)")
print("by hand == captum Saliency:", torch.equal(by_hand, with_captum))
print("by hand == torchguide saliency:",
      torch.equal(by_hand, with_torchguide))
