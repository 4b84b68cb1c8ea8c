# Planted for make test-gpu (expected verdict: WRONG), applied to
# solutions/reduction/sum-two-level.cu: the last block never writes its
# partial sum.
s/if (tx == 0) pPartial\[blockIdx.x\] = v;/if (tx == 0 \&\& blockIdx.x + 1 < gridDim.x) pPartial[blockIdx.x] = v;  \/\/ planted/
