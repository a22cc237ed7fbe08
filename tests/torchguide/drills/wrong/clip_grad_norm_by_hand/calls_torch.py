# expect: for gradients of shapes [(3, 2), (4,)], total norm 7.954 and max_norm=1.0 your clip_grad_norm calls torch.nn.utils.clip_grad_norm_; the drill asks you to write it
# The mistake: the one line from the page, which leaves the exercise undone.
from torch.nn.utils import clip_grad_norm_


def clip_grad_norm(parameters, max_norm):
    return clip_grad_norm_(parameters, max_norm)
