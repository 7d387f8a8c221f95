#!/bin/bash
# Issue 22 side-by-side: search space v1 vs v2, in two parts sharing one database (space.db):
#   PART=a  the convolutions, the dense layer and the 1024^3 matmul (TRIALS 64,320 by default)
#   PART=b  the 1023^3 matmul, layernorm and softmax (TRIALS 64,160 by default: the session's time)
# Resumable: rerun with a larger TRIALS list (e.g. 64,320,640) to extend the same runs.
PART=${PART:-a}
if [ "$PART" = a ]; then
  TRIALS=${TRIALS:-64,320}
  SPECS=('conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu' 'conv2d:N=1,C=2048,H=7,W=7,K=512,R=1,S=1,bias=1,act=relu'
         'dense:M=128,N=768,K=3072,bias=1' 'matmul:M=1024,N=1024,K=1024')
else
  TRIALS=${TRIALS:-64,160}
  SPECS=('matmul:M=1023,N=1023,K=1023' 'layernorm:M=128,N=768' 'softmax:M=1536,N=128')
fi
exec worldtune compare "${SPECS[@]}" \
  --models random/v1,random/v2,static/v2 --trials $TRIALS --seeds 1 --rounds 3 \
  --peers onednn,openblas,libtorch --threads 2 --db space.db --out report-$PART-$(echo $TRIALS | tr , -).md
