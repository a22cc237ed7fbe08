"""An image dataset read lazily from a CSV of ``file,label`` rows.

The corrected form of the Day 6 notes' ``MyImageDataset``: it returns tensors (the notes return
PIL images, which ``default_collate`` rejects), resolves file names against the CSV's folder (the
notes resolve them against the current directory), opens each file only in ``__getitem__``, and
keeps the table as one NumPy array and one tensor rather than a DataFrame of Python strings, which
forked workers would copy page by page as they read it (copy-on-write).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import torch
from PIL import Image
from torch.utils.data import Dataset


def pil_to_tensor(image: Image.Image) -> torch.Tensor:
    """A PIL image as a ``(C, H, W)`` uint8 tensor (as ``torchvision``'s ``pil_to_tensor``).

    Written here so that the library does not depend on torchvision for one line.

    Args:
        image: A PIL image; a single-band image gets one channel.

    Returns:
        A new ``(C, H, W)`` tensor with the image's dtype (uint8 for ``"RGB"`` and ``"L"``).

    Examples:
      ```python
      from PIL import Image
      from torchguide.data.images import pil_to_tensor

      tensor = pil_to_tensor(Image.new("RGB", (5, 2), (255, 0, 0)))
      assert tensor.shape == (3, 2, 5)  # PIL sizes are (W, H)
      assert tensor[0].eq(255).all() and tensor[1:].eq(0).all()
      ```
    """
    array = np.array(image)  # a copy: torch.from_numpy needs a writable array
    if array.ndim == 2:
        array = array[:, :, None]
    return torch.from_numpy(array).permute(2, 0, 1).contiguous()


class ImageCsvDataset(Dataset[tuple[torch.Tensor, int]]):
    """Images listed in a CSV file (``file,label`` with a header), loaded one at a time.

    ``__init__`` reads only the CSV; each image is opened, decoded and closed in
    ``__getitem__``, so memory holds the table, not the pixels, and each ``DataLoader`` worker
    decodes its own images. File names are kept as a fixed-width NumPy string array and labels
    as a tensor: reading them in a worker does not touch per-row Python objects.

    Args:
        csv_file: The CSV; its first column is a file name (relative to the CSV's folder, or
            absolute), its second an integer label.
        transform: Applied to the ``(C, H, W)`` uint8 tensor before it is returned.
        mode: The PIL mode every image is converted to (``"RGB"``: 3 channels).

    Attributes:
        files: The file names, a NumPy array of fixed-width strings.
        labels: The labels, an int64 tensor (for example for
            `torchguide.data.sampling.class_balanced_weights`), read without opening an image.

    Examples:
      ```python
      import tempfile
      from pathlib import Path
      from PIL import Image
      from torchguide.data.images import ImageCsvDataset

      folder = Path(tempfile.mkdtemp())
      Image.new("RGB", (4, 3)).save(folder / "a.png")
      (folder / "labels.csv").write_text("file,label\\na.png,2\\n")
      dataset = ImageCsvDataset(folder / "labels.csv")
      image, label = dataset[0]
      assert image.shape == (3, 3, 4) and label == 2
      assert dataset.labels.tolist() == [2]
      ```
    """

    def __init__(
        self,
        csv_file: str | Path,
        transform: Callable[[torch.Tensor], torch.Tensor] | None = None,
        mode: str = "RGB",
    ) -> None:
        self.root = Path(csv_file).parent
        table = pd.read_csv(csv_file)
        if table.shape[1] < 2:
            raise ValueError(f"{csv_file}: expected the columns file,label")
        self.files = table.iloc[:, 0].to_numpy(dtype=str)
        self.labels = torch.tensor(table.iloc[:, 1].tolist(), dtype=torch.int64)
        self.transform = transform
        self.mode = mode

    def __len__(self) -> int:
        return len(self.files)

    def __getitem__(self, index: int) -> tuple[torch.Tensor, int]:
        with Image.open(self.root / str(self.files[index])) as image:  # closed now, not by the GC
            tensor = pil_to_tensor(image.convert(self.mode))
        if self.transform is not None:
            tensor = self.transform(tensor)
        return tensor, int(self.labels[index])
