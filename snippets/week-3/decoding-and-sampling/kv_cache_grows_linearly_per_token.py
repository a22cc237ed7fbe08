# Llama-2-7B's shape: 32 layers, 32 heads of width 128, no grouping, float16.
LAYERS, KV_HEADS, WIDTH, BYTES = 32, 32, 128, 2
per_token = 2 * LAYERS * KV_HEADS * WIDTH * BYTES  # a key and a value per layer
for tokens in (1, 4096):
    print(
        f"{tokens:5} tokens: {per_token * tokens / 2**20:8.1f} MiB per sequence"
    )
assert per_token == 512 * 1024
assert per_token * 4096 == 2 * 2**30
