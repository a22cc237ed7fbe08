# A Llama-3-8B-like shape: 32 layers, 32 query heads of width 128,
# 8 key/value heads, bfloat16.
LAYERS, HEADS, KV_HEADS, WIDTH, BYTES = 32, 32, 8, 128, 2


def cache_bytes_per_token(kv_heads: int) -> int:
    return 2 * LAYERS * kv_heads * WIDTH * BYTES  # a key and a value per head


multi_head = cache_bytes_per_token(HEADS)
grouped = cache_bytes_per_token(KV_HEADS)
assert multi_head == grouped * (HEADS // KV_HEADS)
print(f"multi-head:    {multi_head // 1024} KiB per token")
print(f"grouped-query: {grouped // 1024} KiB per token")
print(f"8192 tokens, grouped-query: {grouped * 8192 / 2**30:.0f} GiB")
