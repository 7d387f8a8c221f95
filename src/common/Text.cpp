#include "common/Text.h"

#include <iomanip>
#include <sstream>

namespace worldtune {

std::vector<std::string> split_list(const std::string &text) {
    std::vector<std::string> items;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty()) items.push_back(item);
    return items;
}

std::string fixed(double value, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << value;
    return s.str();
}

}  // namespace worldtune
