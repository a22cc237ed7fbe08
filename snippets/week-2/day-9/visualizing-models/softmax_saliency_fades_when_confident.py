# docexec: timeout=60
import torch
from torch import nn
from torchguide.debug.attribution import saliency
from torchguide.debug.toyvision import bar_images, train_tiny_cnn

SEED = torch.initial_seed()
train, test = bar_images(600, seed=SEED), bar_images(300, seed=SEED + 1)
model = train_tiny_cnn(train.images, train.labels)
# --8<-- [start:gist]
probabilities = nn.Sequential(model, nn.Softmax(dim=1)).eval()

of_score = saliency(model, test.images, test.labels).flatten(1)
of_probability = saliency(probabilities, test.images, test.labels)
shrink = of_probability.flatten(1).norm(dim=1) / of_score.norm(dim=1)

with torch.no_grad():
    p_true = probabilities(test.images).gather(1, test.labels[:, None])[:, 0]
confident = p_true > 0.99
unsure = p_true < 0.9
assert shrink[confident].median() < 0.02
assert shrink[unsure].median() > 5 * shrink[confident].median()
# --8<-- [end:gist]
print("size of the probability's gradient / the score's gradient:")
print(f"  {confident.sum():3d} images with p(true) > 0.99: median "
      f"{shrink[confident].median():.4f}")
print(f"  {unsure.sum():3d} images with p(true) < 0.9:  median "
      f"{shrink[unsure].median():.4f}")
