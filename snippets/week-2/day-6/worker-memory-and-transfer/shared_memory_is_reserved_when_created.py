import os

import torch
import torch.multiprocessing as mp

# file_system keeps a name in /dev/shm, so the file can be inspected;
# file_descriptor allocates the same way but unlinks the name at once.
mp.set_sharing_strategy("file_system")
nbytes = 8 * 2**20

# --8<-- [start:gist]
# The call default_collate makes in a worker to get a batch's storage.
storage = torch.UntypedStorage._new_shared(nbytes)
# --8<-- [end:gist]
with open("/proc/self/maps") as f:
    (shm_file,) = {line.split(None, 5)[5].strip() for line in f
                   if "/dev/shm/torch_" in line}
shm = os.stat(shm_file)

# --8<-- [start:gist]
# A shared file mapping made by torch.from_file, for comparison.
torch.from_file("on_disk.bin", shared=True, size=nbytes, dtype=torch.uint8)
# --8<-- [end:gist]
disk = os.stat("on_disk.bin")

# --8<-- [start:gist]
# Nothing has been written to either yet. st_blocks counts the bytes the
# file system has really set aside (in 512-byte units).
assert shm.st_blocks * 512 >= nbytes  # reserved in full (fallocate)
assert disk.st_blocks * 512 < nbytes // 100  # sparse: pages come later
# --8<-- [end:gist]
for name, st in [("shared memory (/dev/shm)", shm),
                 ("torch.from_file on disk", disk)]:
    print(f"{name}: size {st.st_size // 2**20} MiB, "
          f"space set aside {st.st_blocks * 512 / 2**20:.2f} MiB")
