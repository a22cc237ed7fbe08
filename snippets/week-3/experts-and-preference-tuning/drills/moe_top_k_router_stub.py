def route(x, w_router, k):
    """A mixture-of-experts top-k router with its load-balancing loss."""
    raise NotImplementedError
