"""What comes back from the runner (`torchguide.drills._transfer`): data, never code."""

from __future__ import annotations

import os
import pickle

import pytest
import torch

from torchguide.drills._transfer import UnreadableAnswer, decode, encode


def test_tensors_keep_their_values_flags_gradients_and_sharing():
    weight = torch.zeros(2, 3, requires_grad=True)
    weight.grad = torch.ones(2, 3)
    back = decode(encode({"both": [weight, weight], "strided": weight.detach().t()}))
    first, second = back["both"]
    assert first is second and first.requires_grad
    assert torch.equal(first.grad, torch.ones(2, 3))
    assert back["strided"].stride() == weight.t().stride()


def test_a_pickle_that_names_a_global_is_refused_unrun():
    class RunsOnLoad:
        def __reduce__(self):
            return (os.system, ("echo ran",))

    with pytest.raises(UnreadableAnswer):
        decode(pickle.dumps(RunsOnLoad()))
