# expect: for 3 batches of sizes [4, 4, 2] and MSELoss your function keeps the activations of 2 earlier batches alive
# The mistake: losses.append(loss) outside torch.no_grad(); each loss keeps its graph and activations.
def mean_eval_loss(model, loss_fn, batches):
    losses, sizes = [], []
    for x, y in batches:
        losses.append(loss_fn(model(x), y))
        sizes.append(len(x))
    total = sum(loss * n for loss, n in zip(losses, sizes, strict=True))
    return (total / sum(sizes)).item()
