# docexec: timeout=60
import torch
from captum.attr import LayerAttribution, LayerGradCam
from torchguide.debug.attribution import grad_cam
from torchguide.debug.toyvision import bar_images, train_tiny_cnn

SEED = torch.initial_seed()
train, test = bar_images(600, seed=SEED), bar_images(300, seed=SEED + 1)
model = train_tiny_cnn(train.images, train.labels)
layer = model.features[4]

# --8<-- [start:gist]
explainer = LayerGradCam(model, layer)
coarse = explainer.attribute(
    test.images, target=test.labels, relu_attributions=True
)  # (300, 1, 8, 8): at the layer's resolution
upsampled = LayerAttribution.interpolate(
    coarse, (16, 16), interpolate_mode="bilinear"
)
ours = grad_cam(model, layer, test.images, target=test.labels)
same = torch.allclose(ours, upsampled[:, 0], rtol=0, atol=1e-6)
assert same
# --8<-- [end:gist]
print("captum", tuple(upsampled.shape), "vs torchguide", tuple(ours.shape))
print("same maps:", same)

# captum leaves the ReLU of the paper off by default
raw = explainer.attribute(test.images, target=test.labels)
negative = (raw < 0).float().mean()
assert negative > 0 and (ours >= 0).all()
print(f"without relu_attributions=True: {negative:.0%} of the cells "
      "are negative")
