import io

import numpy as np
from PIL import Image

pixels = np.random.randint(0, 256, (32, 32, 3), np.uint8)
buffer = io.BytesIO()
Image.fromarray(pixels).save(buffer, "PNG")
png = buffer.getvalue()

broken = {
    "truncated.png": png[: len(png) // 2],  # download cut short
    "empty.png": b"",  # zero-byte file
    "not_a_png.png": b"<html>404 Not Found</html>",  # saved error page
    "bad_pixel_data.png": png[:60] + bytes([png[60] ^ 0xFF]) + png[61:],
}
for name, data in broken.items():
    with open(name, "wb") as f:
        f.write(data)



# --8<-- [start:gist]
def where_it_fails(name):
    try:
        image = Image.open(name)  # reads the header only
    except OSError as error:
        return "open", error
    try:
        image.convert("RGB")  # decodes the pixels
    except OSError as error:
        return "decode", error
    return "nowhere", None
# --8<-- [end:gist]


failures = {name: where_it_fails(name) for name in broken}
# Every failure is an OSError (UnidentifiedImageError is a subclass) ...
assert all(isinstance(error, OSError) for _, error in failures.values())
# ... and a file whose header is fine opens without complaint.
# --8<-- [start:gist]
assert failures["truncated.png"][0] == "decode"
assert failures["bad_pixel_data.png"][0] == "decode"
# --8<-- [end:gist]
for name, (stage, error) in failures.items():
    print(f"{name:19} fails at {stage:6} {type(error).__name__}: {error}")
