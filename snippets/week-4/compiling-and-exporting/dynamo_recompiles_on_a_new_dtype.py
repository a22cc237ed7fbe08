import torch

graphs = []


def counting_backend(gm, example_inputs):
    graphs.append(gm)  # one call per graph Dynamo captures
    return gm.forward  # run it as captured: no code generated


@torch.compile(backend=counting_backend)
def scaled(x):
    return (x * 2).sin()


# --8<-- [start:gist]
calls = [
    ("float32, 3", torch.ones(3)),
    ("float32, 3 again", torch.ones(3)),  # guards pass: reused
    ("float64, 3", torch.ones(3, dtype=torch.float64)),  # dtype guard
    ("float32, 5", torch.ones(5)),  # size guard: recompiled dynamic
    ("float32, 7", torch.ones(7)),  # the dynamic graph fits
]
counts = []
for name, x in calls:
    scaled(x)
    counts.append(len(graphs))
    print(f"{name:17} graphs compiled so far: {len(graphs)}")
# --8<-- [end:gist]
assert counts == [1, 1, 2, 3, 3]
