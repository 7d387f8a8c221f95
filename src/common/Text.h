// Small text helpers the commands and reports share.
#pragma once

#include <string>
#include <vector>

namespace worldtune {

/// "a,b,,c" -> {"a", "b", "c"}.
std::vector<std::string> split_list(const std::string &text);
/// A number with `digits` decimals.
std::string fixed(double value, int digits);

}  // namespace worldtune
