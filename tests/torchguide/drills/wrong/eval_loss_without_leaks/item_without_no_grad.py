# expect: for 3 batches of sizes [4, 4, 2] and MSELoss your function records an autograd graph in 3 of its 3 forward passes
# The mistake: .item() keeps only a float, but every forward pass still records a graph for nothing.
def mean_eval_loss(model, loss_fn, batches):
    total, count = 0.0, 0
    for x, y in batches:
        total += loss_fn(model(x), y).item() * len(x)
        count += len(x)
    return total / count
