# Planted for make test-gpu (expected verdict: WRONG), applied to
# solutions/reduction/sum-add-first.cu: the second load loses its bound, so
# the last block adds the lab's NaN poison from past n.
s/float b = (i + blockDim.x < n) ? pData\[i + blockDim.x\] : 0.0f;/float b = pData[i + blockDim.x];  \/\/ planted: no bound/
