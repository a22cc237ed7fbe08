import torch

logits = torch.tensor([3.0, 2.0, 1.0, 0.0, -1.0])
# --8<-- [start:gist]
probs = logits.softmax(-1)  # sorted already, for the reading
above = probs.cumsum(-1) - probs  # mass ranked above each token
for top_p in (0.5, 0.9):
    kept = above < top_p  # the token that crosses top_p is kept
    print(
        f"top_p={top_p}: keeps {kept.sum().item()} tokens, mass "
        f"{probs[kept].sum().item():.3f}"
    )
    # --8<-- [end:gist]
    assert probs[kept].sum() >= top_p > probs[kept][:-1].sum()
print("probabilities:", [round(p, 3) for p in probs.tolist()])
