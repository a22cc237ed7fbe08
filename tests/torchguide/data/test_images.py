"""Tests for torchguide.data.images."""

from pathlib import Path

import pytest
import torch
from PIL import Image
from torch.utils.data import DataLoader

from torchguide.data.collate import collate_padded_images
from torchguide.data.images import ImageCsvDataset, pil_to_tensor


def write_images(folder: Path, sizes: list[tuple[int, int]]) -> Path:
    rows = ["file,label"]
    for i, (width, height) in enumerate(sizes):
        Image.new("RGB", (width, height), (i, 2 * i, 3 * i)).save(folder / f"img{i}.png")
        rows.append(f"img{i}.png,{i % 2}")
    csv = folder / "labels.csv"
    csv.write_text("\n".join(rows) + "\n")
    return csv


def test_returns_chw_uint8_tensors_and_int_labels(tmp_path: Path) -> None:
    dataset = ImageCsvDataset(write_images(tmp_path, [(4, 3), (2, 5)]))
    assert len(dataset) == 2
    image, label = dataset[1]
    assert image.dtype == torch.uint8 and image.shape == (3, 5, 2)
    assert image[:, 0, 0].tolist() == [1, 2, 3]
    assert type(label) is int and label == 1
    assert dataset.labels.tolist() == [0, 1]


def test_the_table_holds_no_per_row_python_objects(tmp_path: Path) -> None:
    dataset = ImageCsvDataset(write_images(tmp_path, [(1, 1), (1, 1)]))
    assert not hasattr(dataset, "table")
    assert dataset.files.dtype.kind == "U"  # fixed-width strings inside one buffer
    assert dataset.labels.dtype == torch.int64


def test_files_resolve_against_the_csv_folder(tmp_path: Path, monkeypatch) -> None:
    csv = write_images(tmp_path, [(2, 2)])
    monkeypatch.chdir("/")
    assert ImageCsvDataset(csv)[0][0].shape == (3, 2, 2)


def test_loading_is_lazy(tmp_path: Path) -> None:
    csv = tmp_path / "labels.csv"
    csv.write_text("file,label\nlater.png,0\n")
    dataset = ImageCsvDataset(csv)  # the image does not exist yet
    Image.new("RGB", (3, 1)).save(tmp_path / "later.png")
    assert dataset[0][0].shape == (3, 1, 3)


def test_mode_and_transform(tmp_path: Path) -> None:
    csv = write_images(tmp_path, [(2, 2)])
    dataset = ImageCsvDataset(csv, mode="L", transform=lambda t: t.float() / 255)
    image, _ = dataset[0]
    assert image.shape == (1, 2, 2) and image.dtype == torch.float32


def test_a_missing_file_fails_loudly(tmp_path: Path) -> None:
    csv = tmp_path / "labels.csv"
    csv.write_text("file,label\nmissing.png,0\n")
    with pytest.raises(FileNotFoundError):
        ImageCsvDataset(csv)[0]


def test_a_table_without_labels_is_refused(tmp_path: Path) -> None:
    csv = tmp_path / "labels.csv"
    csv.write_text("file\na.png\n")
    with pytest.raises(ValueError, match="file,label"):
        ImageCsvDataset(csv)


def test_an_empty_table_is_an_empty_dataset(tmp_path: Path) -> None:
    csv = tmp_path / "labels.csv"
    csv.write_text("file,label\n")
    dataset = ImageCsvDataset(csv)
    assert len(dataset) == 0 and dataset.labels.shape == (0,)
    assert list(DataLoader(dataset, batch_size=2)) == []


def test_batches_of_different_sizes_in_two_workers(tmp_path: Path) -> None:
    dataset = ImageCsvDataset(write_images(tmp_path, [(4, 3), (2, 5), (6, 1)]))
    loader = DataLoader(dataset, batch_size=2, num_workers=2, collate_fn=collate_padded_images)
    first, last = list(loader)
    assert first.images.shape == (2, 3, 5, 4) and first.sizes.tolist() == [[3, 4], [5, 2]]
    assert last.images.shape == (1, 3, 1, 6)


def test_pil_to_tensor_grayscale_and_rgba() -> None:
    assert pil_to_tensor(Image.new("L", (3, 2), 7)).tolist() == [[[7, 7, 7], [7, 7, 7]]]
    assert pil_to_tensor(Image.new("RGBA", (1, 1), (1, 2, 3, 4))).flatten().tolist() == [1, 2, 3, 4]
