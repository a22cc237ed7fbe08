def swiglu(x, w_gate, w_up, w_down):
    """The SwiGLU feed-forward block."""
    raise NotImplementedError
