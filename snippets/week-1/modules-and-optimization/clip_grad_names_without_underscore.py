# docexec: raises=AttributeError match="clip_grad_value"
import warnings

import torch
from torch import nn

p = nn.Parameter(torch.ones(3))
p.grad = torch.full((3,), 4.0)

# the name without "_" still exists, but is deprecated
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    nn.utils.clip_grad_norm([p], max_norm=1.0)
assert caught[0].category is FutureWarning
print(caught[0].category.__name__, caught[0].message)

# but clip_grad_value (no "_") does not exist at all
nn.utils.clip_grad_value([p], clip_value=1.0)
