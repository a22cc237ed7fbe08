import torch

MIB = 2**20
torch.save({"features": torch.zeros(8_192, 1_024)}, "features.pt")  # 32 MiB


def anonymous_mib():
    """The process's own resident memory (RssAnon in /proc/self/status)."""
    with open("/proc/self/status") as f:
        line = next(x for x in f if x.startswith("RssAnon:"))
    return int(line.split()[1]) / 1024


growth = {}
# --8<-- [start:gist]
for mmap in (False, True):
    start = anonymous_mib()
    features = torch.load("features.pt", mmap=mmap)["features"]
    features[::64].sum()  # read a row in every 64
    growth[mmap] = anonymous_mib() - start
# --8<-- [end:gist]
    del features

# mmap=True maps the file's storage: pages come from the page cache on
# access and are not the process's own; without it all 32 MiB are read in
# --8<-- [start:gist]
assert growth[False] > 24 and growth[True] < 8, growth
# --8<-- [end:gist]
for mmap, mib in growth.items():
    print(f"torch.load(mmap={mmap}): own memory +{mib:.0f} MiB")
