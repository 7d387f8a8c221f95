// The network presets as data: one table per network, layer shapes from the published architectures.
#include "workload/Presets.h"

#include "workload/Spec.h"

namespace worldtune {

namespace {

// ResNet-50 v1.5 (He et al., "Deep Residual Learning for Image Recognition", 2016; torchvision's
// resnet50, stride 2 in the 3x3 conv of each stage's first bottleneck), 224x224 input, batch 1.
// Batch norm is folded into each conv's bias; convs followed by BN+ReLU carry act=relu, the last 1x1 conv
// of each bottleneck and the downsample 1x1 feed the residual add and carry act=none (the add and the
// ReLU after it are elementwise and not modelled). 53 convs, the 3x3/2 max pool, the global 7x7 average
// pool and the 2048->1000 classifier.
const std::vector<PresetEntry> kResnet50 = {
    {"conv2d:N=1,C=3,H=224,W=224,K=64,R=7,S=7,stride=2,pad=3,bias=1,act=relu", 1},
    {"pool2d:N=1,C=64,H=112,W=112,R=3,S=3,stride=2,pad=1", 1},
    {"conv2d:N=1,C=64,H=56,W=56,K=64,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=64,H=56,W=56,K=64,R=3,S=3,pad=1,bias=1,act=relu", 3},
    {"conv2d:N=1,C=64,H=56,W=56,K=256,R=1,S=1,bias=1", 4},
    {"conv2d:N=1,C=256,H=56,W=56,K=64,R=1,S=1,bias=1,act=relu", 2},
    {"conv2d:N=1,C=256,H=56,W=56,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=56,W=56,K=128,R=3,S=3,stride=2,pad=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=28,W=28,K=512,R=1,S=1,bias=1", 4},
    {"conv2d:N=1,C=256,H=56,W=56,K=512,R=1,S=1,stride=2,bias=1", 1},
    {"conv2d:N=1,C=512,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 3},
    {"conv2d:N=1,C=128,H=28,W=28,K=128,R=3,S=3,pad=1,bias=1,act=relu", 3},
    {"conv2d:N=1,C=512,H=28,W=28,K=256,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=256,H=28,W=28,K=256,R=3,S=3,stride=2,pad=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=256,H=14,W=14,K=1024,R=1,S=1,bias=1", 6},
    {"conv2d:N=1,C=512,H=28,W=28,K=1024,R=1,S=1,stride=2,bias=1", 1},
    {"conv2d:N=1,C=1024,H=14,W=14,K=256,R=1,S=1,bias=1,act=relu", 5},
    {"conv2d:N=1,C=256,H=14,W=14,K=256,R=3,S=3,pad=1,bias=1,act=relu", 5},
    {"conv2d:N=1,C=1024,H=14,W=14,K=512,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=512,H=14,W=14,K=512,R=3,S=3,stride=2,pad=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=512,H=7,W=7,K=2048,R=1,S=1,bias=1", 3},
    {"conv2d:N=1,C=1024,H=14,W=14,K=2048,R=1,S=1,stride=2,bias=1", 1},
    {"conv2d:N=1,C=2048,H=7,W=7,K=512,R=1,S=1,bias=1,act=relu", 2},
    {"conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu", 2},
    {"pool2d:N=1,C=2048,H=7,W=7,R=7,S=7,kind=avg", 1},
    {"dense:M=1,N=1000,K=2048,bias=1", 1},
};

// MobileNet-V2 (Sandler et al., "MobileNetV2: Inverted Residuals and Linear Bottlenecks", 2018;
// torchvision's mobilenet_v2, width 1.0), 224x224 input, batch 1. Inverted residual blocks (t, c, n, s):
// (1,16,1,1) (6,24,2,2) (6,32,3,2) (6,64,4,2) (6,96,3,1) (6,160,3,2) (6,320,1,1): a 1x1 expansion
// (absent when t=1), a 3x3 depthwise conv (groups=C) and a linear 1x1 projection (act=none). BN is folded
// into the bias; ReLU6 is modelled as relu. 52 convs, the global 7x7 average pool and the 1280->1000
// classifier.
const std::vector<PresetEntry> kMobilenetV2 = {
    {"conv2d:N=1,C=3,H=224,W=224,K=32,R=3,S=3,stride=2,pad=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=32,H=112,W=112,K=32,R=3,S=3,pad=1,groups=32,bias=1,act=relu", 1},
    {"conv2d:N=1,C=32,H=112,W=112,K=16,R=1,S=1,bias=1", 1},
    {"conv2d:N=1,C=16,H=112,W=112,K=96,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=96,H=112,W=112,K=96,R=3,S=3,stride=2,pad=1,groups=96,bias=1,act=relu", 1},
    {"conv2d:N=1,C=96,H=56,W=56,K=24,R=1,S=1,bias=1", 1},
    {"conv2d:N=1,C=24,H=56,W=56,K=144,R=1,S=1,bias=1,act=relu", 2},
    {"conv2d:N=1,C=144,H=56,W=56,K=144,R=3,S=3,pad=1,groups=144,bias=1,act=relu", 1},
    {"conv2d:N=1,C=144,H=56,W=56,K=24,R=1,S=1,bias=1", 1},
    {"conv2d:N=1,C=144,H=56,W=56,K=144,R=3,S=3,stride=2,pad=1,groups=144,bias=1,act=relu", 1},
    {"conv2d:N=1,C=144,H=28,W=28,K=32,R=1,S=1,bias=1", 1},
    {"conv2d:N=1,C=32,H=28,W=28,K=192,R=1,S=1,bias=1,act=relu", 3},
    {"conv2d:N=1,C=192,H=28,W=28,K=192,R=3,S=3,pad=1,groups=192,bias=1,act=relu", 2},
    {"conv2d:N=1,C=192,H=28,W=28,K=32,R=1,S=1,bias=1", 2},
    {"conv2d:N=1,C=192,H=28,W=28,K=192,R=3,S=3,stride=2,pad=1,groups=192,bias=1,act=relu", 1},
    {"conv2d:N=1,C=192,H=14,W=14,K=64,R=1,S=1,bias=1", 1},
    {"conv2d:N=1,C=64,H=14,W=14,K=384,R=1,S=1,bias=1,act=relu", 4},
    {"conv2d:N=1,C=384,H=14,W=14,K=384,R=3,S=3,pad=1,groups=384,bias=1,act=relu", 4},
    {"conv2d:N=1,C=384,H=14,W=14,K=64,R=1,S=1,bias=1", 3},
    {"conv2d:N=1,C=384,H=14,W=14,K=96,R=1,S=1,bias=1", 1},
    {"conv2d:N=1,C=96,H=14,W=14,K=576,R=1,S=1,bias=1,act=relu", 3},
    {"conv2d:N=1,C=576,H=14,W=14,K=576,R=3,S=3,pad=1,groups=576,bias=1,act=relu", 2},
    {"conv2d:N=1,C=576,H=14,W=14,K=96,R=1,S=1,bias=1", 2},
    {"conv2d:N=1,C=576,H=14,W=14,K=576,R=3,S=3,stride=2,pad=1,groups=576,bias=1,act=relu", 1},
    {"conv2d:N=1,C=576,H=7,W=7,K=160,R=1,S=1,bias=1", 1},
    {"conv2d:N=1,C=160,H=7,W=7,K=960,R=1,S=1,bias=1,act=relu", 3},
    {"conv2d:N=1,C=960,H=7,W=7,K=960,R=3,S=3,pad=1,groups=960,bias=1,act=relu", 3},
    {"conv2d:N=1,C=960,H=7,W=7,K=160,R=1,S=1,bias=1", 2},
    {"conv2d:N=1,C=960,H=7,W=7,K=320,R=1,S=1,bias=1", 1},
    {"conv2d:N=1,C=320,H=7,W=7,K=1280,R=1,S=1,bias=1,act=relu", 1},
    {"pool2d:N=1,C=1280,H=7,W=7,R=7,S=7,kind=avg", 1},
    {"dense:M=1,N=1000,K=1280,bias=1", 1},
};

// BERT-base (Devlin et al., "BERT: Pre-training of Deep Bidirectional Transformers", 2019): 12 layers,
// hidden 768, 12 heads of 64, FFN 3072, sequence 128, batch 1. Per layer: fused QKV projection, scores
// Q·Kᵀ per head, softmax over the keys (the 1/8 scale and the mask are elementwise, not modelled),
// scores·V, output projection, two layer norms, FFN up (GELU, modelled by its tanh form) and down. The
// embedding layer norm makes 25 layer norms. The pooler (tanh) is left out.
const std::vector<PresetEntry> kBertBase = {
    {"layernorm:M=128,N=768", 25},
    {"dense:M=128,N=2304,K=768,bias=1", 12},
    {"batch_matmul:B=12,M=128,N=128,K=64,trans_b=1", 12},
    {"softmax:M=1536,N=128", 12},
    {"batch_matmul:B=12,M=128,N=64,K=128", 12},
    {"dense:M=128,N=768,K=768,bias=1", 12},
    {"dense:M=128,N=3072,K=768,bias=1,act=gelu", 12},
    {"dense:M=128,N=768,K=3072,bias=1", 12},
};

// GPT-2 small (Radford et al., "Language Models are Unsupervised Multitask Learners", 2019): 12 layers,
// hidden 768, 12 heads of 64, FFN 3072 with GELU, pre-LN (two layer norms per layer plus the final
// ln_f: 25), sequence 128, batch 1. The causal mask is elementwise: scores and softmax are modelled over
// the full 128 keys. The LM head projects onto the 50257-token vocabulary with the tied embedding
// (W[50257][768], no bias).
const std::vector<PresetEntry> kGpt2 = {
    {"layernorm:M=128,N=768", 25},
    {"dense:M=128,N=2304,K=768,bias=1", 12},
    {"batch_matmul:B=12,M=128,N=128,K=64,trans_b=1", 12},
    {"softmax:M=1536,N=128", 12},
    {"batch_matmul:B=12,M=128,N=64,K=128", 12},
    {"dense:M=128,N=768,K=768,bias=1", 12},
    {"dense:M=128,N=3072,K=768,bias=1,act=gelu", 12},
    {"dense:M=128,N=768,K=3072,bias=1", 12},
    {"dense:M=128,N=50257,K=768", 1},
};


// ResNet-18 (He et al., 2016; torchvision's resnet18), 224x224 input, batch 1. Basic blocks of two 3x3
// convs: the first carries BN+ReLU (act=relu), the second feeds the residual add (act=none); each stage
// after the first starts with a stride-2 3x3 conv and a stride-2 1x1 downsample. BN folded into the bias.
const std::vector<PresetEntry> kResnet18 = {
    {"conv2d:N=1,C=3,H=224,W=224,K=64,R=7,S=7,stride=2,pad=3,bias=1,act=relu", 1},
    {"pool2d:N=1,C=64,H=112,W=112,R=3,S=3,stride=2,pad=1", 1},
    {"conv2d:N=1,C=64,H=56,W=56,K=64,R=3,S=3,pad=1,bias=1,act=relu", 2},
    {"conv2d:N=1,C=64,H=56,W=56,K=64,R=3,S=3,pad=1,bias=1", 2},
    {"conv2d:N=1,C=64,H=56,W=56,K=128,R=3,S=3,stride=2,pad=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=64,H=56,W=56,K=128,R=1,S=1,stride=2,bias=1", 1},
    {"conv2d:N=1,C=128,H=28,W=28,K=128,R=3,S=3,pad=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=28,W=28,K=128,R=3,S=3,pad=1,bias=1", 2},
    {"conv2d:N=1,C=128,H=28,W=28,K=256,R=3,S=3,stride=2,pad=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=28,W=28,K=256,R=1,S=1,stride=2,bias=1", 1},
    {"conv2d:N=1,C=256,H=14,W=14,K=256,R=3,S=3,pad=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=256,H=14,W=14,K=256,R=3,S=3,pad=1,bias=1", 2},
    {"conv2d:N=1,C=256,H=14,W=14,K=512,R=3,S=3,stride=2,pad=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=256,H=14,W=14,K=512,R=1,S=1,stride=2,bias=1", 1},
    {"conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=512,H=7,W=7,K=512,R=3,S=3,pad=1,bias=1", 2},
    {"pool2d:N=1,C=512,H=7,W=7,R=7,S=7,kind=avg", 1},
    {"dense:M=1,N=1000,K=512,bias=1", 1},
};

// MobileNet-V1 (Howard et al., "MobileNets", 2017; width 1.0), 224x224 input, batch 1: a 3x3/2 stem, then
// 13 depthwise-separable pairs (3x3 depthwise, groups=C, then a 1x1 pointwise), each with BN+ReLU folded
// (act=relu), the global 7x7 average pool and the 1024->1000 classifier.
const std::vector<PresetEntry> kMobilenetV1 = {
    {"conv2d:N=1,C=3,H=224,W=224,K=32,R=3,S=3,stride=2,pad=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=32,H=112,W=112,K=32,R=3,S=3,pad=1,groups=32,bias=1,act=relu", 1},
    {"conv2d:N=1,C=32,H=112,W=112,K=64,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=64,H=112,W=112,K=64,R=3,S=3,stride=2,pad=1,groups=64,bias=1,act=relu", 1},
    {"conv2d:N=1,C=64,H=56,W=56,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=56,W=56,K=128,R=3,S=3,pad=1,groups=128,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=56,W=56,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=56,W=56,K=128,R=3,S=3,stride=2,pad=1,groups=128,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=28,W=28,K=256,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=256,H=28,W=28,K=256,R=3,S=3,pad=1,groups=256,bias=1,act=relu", 1},
    {"conv2d:N=1,C=256,H=28,W=28,K=256,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=256,H=28,W=28,K=256,R=3,S=3,stride=2,pad=1,groups=256,bias=1,act=relu", 1},
    {"conv2d:N=1,C=256,H=14,W=14,K=512,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=512,H=14,W=14,K=512,R=3,S=3,pad=1,groups=512,bias=1,act=relu", 5},
    {"conv2d:N=1,C=512,H=14,W=14,K=512,R=1,S=1,bias=1,act=relu", 5},
    {"conv2d:N=1,C=512,H=14,W=14,K=512,R=3,S=3,stride=2,pad=1,groups=512,bias=1,act=relu", 1},
    {"conv2d:N=1,C=512,H=7,W=7,K=1024,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=1024,H=7,W=7,K=1024,R=3,S=3,pad=1,groups=1024,bias=1,act=relu", 1},
    {"conv2d:N=1,C=1024,H=7,W=7,K=1024,R=1,S=1,bias=1,act=relu", 1},
    {"pool2d:N=1,C=1024,H=7,W=7,R=7,S=7,kind=avg", 1},
    {"dense:M=1,N=1000,K=1024,bias=1", 1},
};

// SqueezeNet 1.1 (Iandola et al., 2016; torchvision's squeezenet1_1), 224x224 input, batch 1: a 3x3/2
// stem without padding (111x111), three 3x3/2 max pools (55, 27, 13), eight fire modules (a 1x1 squeeze,
// then 1x1 and 3x3 expands whose outputs are concatenated), the 1x1 classifier conv and a global 13x13
// average pool. Every conv carries ReLU. Odd spatial sizes throughout.
const std::vector<PresetEntry> kSqueezenet = {
    {"conv2d:N=1,C=3,H=224,W=224,K=64,R=3,S=3,stride=2,bias=1,act=relu", 1},
    {"pool2d:N=1,C=64,H=111,W=111,R=3,S=3,stride=2", 1},
    {"conv2d:N=1,C=64,H=55,W=55,K=16,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=16,H=55,W=55,K=64,R=1,S=1,bias=1,act=relu", 2},
    {"conv2d:N=1,C=16,H=55,W=55,K=64,R=3,S=3,pad=1,bias=1,act=relu", 2},
    {"conv2d:N=1,C=128,H=55,W=55,K=16,R=1,S=1,bias=1,act=relu", 1},
    {"pool2d:N=1,C=128,H=55,W=55,R=3,S=3,stride=2", 1},
    {"conv2d:N=1,C=128,H=27,W=27,K=32,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=32,H=27,W=27,K=128,R=1,S=1,bias=1,act=relu", 2},
    {"conv2d:N=1,C=32,H=27,W=27,K=128,R=3,S=3,pad=1,bias=1,act=relu", 2},
    {"conv2d:N=1,C=256,H=27,W=27,K=32,R=1,S=1,bias=1,act=relu", 1},
    {"pool2d:N=1,C=256,H=27,W=27,R=3,S=3,stride=2", 1},
    {"conv2d:N=1,C=256,H=13,W=13,K=48,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=48,H=13,W=13,K=192,R=1,S=1,bias=1,act=relu", 2},
    {"conv2d:N=1,C=48,H=13,W=13,K=192,R=3,S=3,pad=1,bias=1,act=relu", 2},
    {"conv2d:N=1,C=384,H=13,W=13,K=48,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=384,H=13,W=13,K=64,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=64,H=13,W=13,K=256,R=1,S=1,bias=1,act=relu", 2},
    {"conv2d:N=1,C=64,H=13,W=13,K=256,R=3,S=3,pad=1,bias=1,act=relu", 2},
    {"conv2d:N=1,C=512,H=13,W=13,K=64,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=512,H=13,W=13,K=1000,R=1,S=1,bias=1,act=relu", 1},
    {"pool2d:N=1,C=1000,H=13,W=13,R=13,S=13,kind=avg", 1},
};

// ViT-B/16 (Dosovitskiy et al., "An Image is Worth 16x16 Words", 2021), 224x224 input, batch 1: a 16x16/16
// patch embedding conv (196 patches plus the class token: 197 tokens), 12 pre-LN layers of hidden 768, 12
// heads of 64 and MLP 3072 with GELU (two layer norms per layer plus the final one: 25), and the
// 768->1000 head on the class token. The 1/8 scale and the residual adds are elementwise, not modelled.
const std::vector<PresetEntry> kVitB16 = {
    {"conv2d:N=1,C=3,H=224,W=224,K=768,R=16,S=16,stride=16,bias=1", 1},
    {"layernorm:M=197,N=768", 25},
    {"dense:M=197,N=2304,K=768,bias=1", 12},
    {"batch_matmul:B=12,M=197,N=197,K=64,trans_b=1", 12},
    {"softmax:M=2364,N=197", 12},
    {"batch_matmul:B=12,M=197,N=64,K=197", 12},
    {"dense:M=197,N=768,K=768,bias=1", 12},
    {"dense:M=197,N=3072,K=768,bias=1,act=gelu", 12},
    {"dense:M=197,N=768,K=3072,bias=1", 12},
    {"dense:M=1,N=1000,K=768,bias=1", 1},
};

// BERT-large (Devlin et al., 2019): 24 layers, hidden 1024, 16 heads of 64, FFN 4096, sequence 128, batch 1,
// modelled as BERT-base is (49 layer norms with the embedding's).
const std::vector<PresetEntry> kBertLarge = {
    {"layernorm:M=128,N=1024", 49},
    {"dense:M=128,N=3072,K=1024,bias=1", 24},
    {"batch_matmul:B=16,M=128,N=128,K=64,trans_b=1", 24},
    {"softmax:M=2048,N=128", 24},
    {"batch_matmul:B=16,M=128,N=64,K=128", 24},
    {"dense:M=128,N=1024,K=1024,bias=1", 24},
    {"dense:M=128,N=4096,K=1024,bias=1,act=gelu", 24},
    {"dense:M=128,N=1024,K=4096,bias=1", 24},
};

// DenseNet-121 (Huang et al., "Densely Connected Convolutional Networks", 2017; torchvision's densenet121),
// 224x224 input, batch 1, growth rate 32, blocks of 6, 12, 24 and 16 layers at 56, 28, 14 and 7. Each
// layer is a 1x1 bottleneck conv from every earlier feature map of its block (64 + 32 i input channels in
// block 1, ...) to 128, then a 3x3 conv to 32; a transition halves the channels (1x1) and the size (2x2/2
// average pool). BN+ReLU before a conv is folded into the conv that feeds it (act=relu); the 3x3 convs feed
// the concatenation and carry none. The global 7x7 average pool and the 1024->1000 classifier close it.
const std::vector<PresetEntry> kDensenet121 = {
    {"conv2d:N=1,C=3,H=224,W=224,K=64,R=7,S=7,stride=2,pad=3,bias=1,act=relu", 1},
    {"pool2d:N=1,C=64,H=112,W=112,R=3,S=3,stride=2,pad=1", 1},
    {"conv2d:N=1,C=64,H=56,W=56,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=96,H=56,W=56,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=56,W=56,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=160,H=56,W=56,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=192,H=56,W=56,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=224,H=56,W=56,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=56,W=56,K=32,R=3,S=3,pad=1,bias=1", 6},
    {"conv2d:N=1,C=256,H=56,W=56,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"pool2d:N=1,C=128,H=56,W=56,R=2,S=2,stride=2,kind=avg", 1},
    {"conv2d:N=1,C=128,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=160,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=192,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=224,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=256,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=288,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=320,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=352,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=384,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=416,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=448,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=480,H=28,W=28,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=28,W=28,K=32,R=3,S=3,pad=1,bias=1", 12},
    {"conv2d:N=1,C=512,H=28,W=28,K=256,R=1,S=1,bias=1,act=relu", 1},
    {"pool2d:N=1,C=256,H=28,W=28,R=2,S=2,stride=2,kind=avg", 1},
    {"conv2d:N=1,C=256,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=288,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=320,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=352,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=384,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=416,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=448,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=480,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=512,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=544,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=576,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=608,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=640,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=672,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=704,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=736,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=768,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=800,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=832,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=864,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=896,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=928,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=960,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=992,H=14,W=14,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=14,W=14,K=32,R=3,S=3,pad=1,bias=1", 24},
    {"conv2d:N=1,C=1024,H=14,W=14,K=512,R=1,S=1,bias=1,act=relu", 1},
    {"pool2d:N=1,C=512,H=14,W=14,R=2,S=2,stride=2,kind=avg", 1},
    {"conv2d:N=1,C=512,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=544,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=576,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=608,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=640,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=672,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=704,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=736,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=768,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=800,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=832,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=864,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=896,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=928,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=960,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=992,H=7,W=7,K=128,R=1,S=1,bias=1,act=relu", 1},
    {"conv2d:N=1,C=128,H=7,W=7,K=32,R=3,S=3,pad=1,bias=1", 16},
    {"pool2d:N=1,C=1024,H=7,W=7,R=7,S=7,kind=avg", 1},
    {"dense:M=1,N=1000,K=1024,bias=1", 1},
};

// T5-small's encoder (Raffel et al., 2020): 6 layers, d_model 512, 8 heads of 64, FFN 2048 with ReLU,
// sequence 128, batch 1. T5's RMS norm is modelled as a layer norm (two per layer plus the final one: 13);
// the Q, K and V projections have no bias and are fused, as the attention output and the FFN.
const std::vector<PresetEntry> kT5SmallEncoder = {
    {"layernorm:M=128,N=512", 13},
    {"dense:M=128,N=1536,K=512", 6},
    {"batch_matmul:B=8,M=128,N=128,K=64,trans_b=1", 6},
    {"softmax:M=1024,N=128", 6},
    {"batch_matmul:B=8,M=128,N=64,K=128", 6},
    {"dense:M=128,N=512,K=512", 6},
    {"dense:M=128,N=2048,K=512,act=relu", 6},
    {"dense:M=128,N=512,K=2048", 6},
};

}  // namespace

const std::vector<std::string> &preset_names() {
    static const std::vector<std::string> names = {"resnet50", "mobilenet_v2", "bert_base", "gpt2", "resnet18",
                                                   "mobilenet_v1", "squeezenet1_1", "vit_b16", "bert_large", "densenet121",
                                                   "t5_small_encoder"};
    return names;
}

std::vector<PresetEntry> preset(const std::string &name) {
    if (name == "resnet50") return kResnet50;
    if (name == "mobilenet_v2") return kMobilenetV2;
    if (name == "bert_base") return kBertBase;
    if (name == "gpt2") return kGpt2;
    if (name == "resnet18") return kResnet18;
    if (name == "mobilenet_v1") return kMobilenetV1;
    if (name == "squeezenet1_1") return kSqueezenet;
    if (name == "vit_b16") return kVitB16;
    if (name == "bert_large") return kBertLarge;
    if (name == "densenet121") return kDensenet121;
    if (name == "t5_small_encoder") return kT5SmallEncoder;
    std::string known;
    for (const std::string &n : preset_names()) known += (known.empty() ? "" : ", ") + n;
    throw SpecError("unknown network '" + name + "' (known: " + known + ")");
}

}  // namespace worldtune
