// Network presets: each network as the list of its distinct subgraph specs and how often each occurs.
#pragma once

#include <string>
#include <vector>

namespace worldtune {

/// One distinct subgraph of a network: its canonical spec text and its number of occurrences.
struct PresetEntry {
    std::string spec;
    int count;
};

/// The known networks: resnet50, mobilenet_v2, bert_base, gpt2 (the first four, whose subgraphs the
/// collection list holds), resnet18, mobilenet_v1, squeezenet1_1, vit_b16, bert_large, densenet121,
/// t5_small_encoder (batch 1; sequence length 128 for the text transformers, 197 tokens for ViT).
const std::vector<std::string> &preset_names();

/// The subgraphs of a network, distinct and in network order. Throws SpecError naming the known networks.
std::vector<PresetEntry> preset(const std::string &name);

}  // namespace worldtune
