// Small text helpers the commands and reports share.
#pragma once

#include <string>
#include <vector>

namespace worldtune {

/// "a,b,,c" -> {"a", "b", "c"}.
std::vector<std::string> split_list(const std::string &text);
/// `text` with control characters written as \xHH, so an error quoting outside input stays on one line.
std::string printable(const std::string &text);
/// A number with `digits` decimals.
std::string fixed(double value, int digits);

}  // namespace worldtune
