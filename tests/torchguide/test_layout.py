"""Unit tests for torchguide.layout."""

import numpy as np
import torch

from torchguide.layout import (
    describe_layout,
    shares_storage,
    storage_index_map,
)


def test_describe_layout_contiguous():
    x = torch.zeros(2, 3, 4, dtype=torch.float64)
    assert describe_layout(x) == (
        "shape=(2, 3, 4) stride=(12, 4, 1) offset=0 contiguous=True "
        "dtype=float64"
    )


def test_describe_layout_slice_has_offset_and_is_not_contiguous():
    x = torch.arange(12).reshape(3, 4)
    assert describe_layout(x[1:, 1:]) == (
        "shape=(2, 3) stride=(4, 1) offset=5 contiguous=False dtype=int64"
    )


def test_describe_layout_expand_has_zero_stride():
    x = torch.ones(3, 1).expand(3, 4)
    assert "stride=(1, 0)" in describe_layout(x)


def test_describe_layout_scalar():
    assert describe_layout(torch.tensor(5)) == (
        "shape=() stride=() offset=0 contiguous=True dtype=int64"
    )


def test_shares_storage_views():
    x = torch.arange(12.0).reshape(3, 4)
    for view in (x.view(4, 3), x.t(), x[1], x[:, 2], x.unsqueeze(0), x[:]):
        assert shares_storage(x, view)


def test_shares_storage_copies():
    x = torch.arange(12.0).reshape(3, 4)
    for copy in (x.clone(), x + 0, x.t().contiguous(), x[[0, 2]]):
        assert not shares_storage(x, copy)


def test_shares_storage_symmetric_and_numpy():
    arr = np.arange(4, dtype=np.float32)
    t = torch.from_numpy(arr)
    u = torch.from_numpy(arr[1:])
    assert shares_storage(t, u) is False  # different storages, overlap
    assert shares_storage(t, t[1:]) and shares_storage(t[1:], t)


def test_shares_storage_ignores_unallocated():
    assert not shares_storage(torch.empty(0), torch.empty(0))
    m = torch.ones(3, device="meta")
    assert not shares_storage(m, m)


def test_storage_index_map_matches_stride_formula():
    x = torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1)[1:, :, ::2]
    idx = storage_index_map(x)
    assert idx.shape == x.shape and idx.dtype == torch.int64
    # the base is arange, so each element's value is its storage index
    assert torch.equal(idx, x)


def test_storage_index_map_expand_repeats_index():
    x = torch.zeros(3, 1).expand(3, 4)
    assert storage_index_map(x).tolist() == [[0] * 4, [1] * 4, [2] * 4]
