# docexec: timeout=60
import torch
import torch.nn.functional as F
from torchguide.debug.attribution import grad_cam
from torchguide.debug.toyvision import bar_images, train_tiny_cnn

SEED = torch.initial_seed()
train, test = bar_images(600, seed=SEED), bar_images(300, seed=SEED + 1)
model = train_tiny_cnn(train.images, train.labels)
print(model.classifier, "after global average pooling")

# --8<-- [start:gist]
# CAM (Zhou et al., 2016): weight the last feature maps A_k by the
# linear layer's weights w_k of the class. No gradient needed.
with torch.no_grad():
    maps = model.features(test.images)  # A: (300, 32, 8, 8)
    w = model.classifier.weight[test.labels]  # w^c: (300, 32)
    cam = torch.einsum("nk,nkhw->nhw", w, maps)
# --8<-- [end:gist]

# Grad-CAM's channel weight is the mean gradient d score / d A_k,
# and through mean-pooling + linear that is w_k / (h * w).
# --8<-- [start:gist]
gcam = grad_cam(model, model.features[4], test.images, test.labels,
                upsample=False)
area = 8 * 8  # h * w of the feature maps
same = torch.allclose(gcam * area, F.relu(cam), atol=1e-5)
assert same
# --8<-- [end:gist]
print(f"Grad-CAM x {area} == ReLU(CAM):", same)
negative = (cam < 0).float().mean()
print(f"cells where CAM < 0 (Grad-CAM's ReLU sets them to 0): "
      f"{negative:.0%}")
