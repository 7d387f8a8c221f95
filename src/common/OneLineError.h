// The base of every error that may quote outside input (a spec, an action, a record, a file name).
#pragma once

#include "common/Text.h"

#include <stdexcept>
#include <string>

namespace worldtune {

/// Its message has control characters written as \xHH (see printable), so a newline in the input cannot break
/// the one-line error a command prints (found by fuzzing: specs, actions, bundle config keys).
struct OneLineError : std::runtime_error {
    explicit OneLineError(const std::string &message) : std::runtime_error(printable(message)) {}
};

}  // namespace worldtune
