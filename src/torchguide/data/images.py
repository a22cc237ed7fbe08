"""An image dataset read lazily from a CSV of ``file,label`` rows.

The corrected form of the Day 6 notes' ``MyImageDataset``: it returns tensors (the notes return
PIL images, which ``default_collate`` rejects), resolves file names against the CSV's folder (the
notes resolve them against the current directory), and opens each file only in ``__getitem__``.
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
    decodes its own images.

    Args:
        csv_file: The CSV; its first column is a file name (relative to the CSV's folder, or
            absolute), its second an integer label.
        transform: Applied to the ``(C, H, W)`` uint8 tensor before it is returned.
        mode: The PIL mode every image is converted to (``"RGB"``: 3 channels).

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
        self.table = pd.read_csv(csv_file)
        if self.table.shape[1] < 2:
            raise ValueError(f"{csv_file}: expected the columns file,label")
        self.transform = transform
        self.mode = mode

    @property
    def labels(self) -> torch.Tensor:
        """The labels of all samples, read from the table without opening an image."""
        return torch.tensor(self.table.iloc[:, 1].tolist(), dtype=torch.int64)

    def __len__(self) -> int:
        return len(self.table)

    def __getitem__(self, index: int) -> tuple[torch.Tensor, int]:
        file_name, label = self.table.iloc[index, 0], self.table.iloc[index, 1]
        with Image.open(self.root / file_name) as image:  # closed at once, not left to the GC
            tensor = pil_to_tensor(image.convert(self.mode))
        if self.transform is not None:
            tensor = self.transform(tensor)
        return tensor, int(label)
