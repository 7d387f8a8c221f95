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

}  // namespace

const std::vector<std::string> &preset_names() {
    static const std::vector<std::string> names = {"resnet50", "mobilenet_v2", "bert_base", "gpt2"};
    return names;
}

std::vector<PresetEntry> preset(const std::string &name) {
    if (name == "resnet50") return kResnet50;
    if (name == "mobilenet_v2") return kMobilenetV2;
    if (name == "bert_base") return kBertBase;
    if (name == "gpt2") return kGpt2;
    std::string known;
    for (const std::string &n : preset_names()) known += (known.empty() ? "" : ", ") + n;
    throw SpecError("unknown network '" + name + "' (known: " + known + ")");
}

}  // namespace worldtune
