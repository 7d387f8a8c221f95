// Helpers shared by the tests: run the worldtune binary and capture what it prints.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace worldtune::test {

/// Runs a shell command, stdout and stderr together into `output`; returns its exit status (-1 if killed).
inline int run_command(const std::string &cmd, std::string &output) {
    output.clear();
    FILE *pipe = popen((cmd + " 2>&1").c_str(), "r");
    if (!pipe) return -1;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) output.append(buf, n);
    const int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Runs `worldtune ARGS`.
inline int run_worldtune(const std::string &args, std::string &output) {
    return run_command(std::string(WORLDTUNE_BINARY) + " " + args, output);
}

/// Number of lines in a text (a trailing newline does not start a line).
inline int count_lines(const std::string &text) {
    int lines = 0;
    for (size_t i = 0; i < text.size(); i++)
        if (text[i] == '\n' || i + 1 == text.size()) lines++;
    return lines;
}

}  // namespace worldtune::test
