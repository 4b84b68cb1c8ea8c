# Planted for make test-gpu (expected verdict: WRONG), applied to
# solutions/dynpar/nested-reduce.cu: every block takes itself to be full, as
# the book's version does, so the last block folds the lab's poison from past n.
s/unsigned int isize = n - base < blockDim.x ? n - base : blockDim.x;/unsigned int isize = blockDim.x; \/\/ planted: no bound/
