# expect: your augment_batch changed its argument images; leave it as it was
# The mistake: the chosen images flipped by assigning into the batch: the caller's decoded
# images are changed, and the next epoch flips some of them back.
def augment_batch(images, flip):
    images[flip] = images[flip].flip(-1)
    return (images.float() / 255 - 0.5) / 0.5
