// Text files that may be gzip-compressed: the dataset files and the records' JSON Lines share them, so a file
// written by one command as NAME.gz reads back in every other.
#pragma once

#include <zlib.h>

#include <string>

namespace worldtune {

/// Lines of a file, gzip-compressed or plain (zlib reads plain files as they are).
class GzLines {
public:
    explicit GzLines(const std::string &path);
    ~GzLines();
    GzLines(const GzLines &) = delete;
    GzLines &operator=(const GzLines &) = delete;
    bool open() const { return file_ != nullptr; }
    /// The next line without its newline; false at the end (or on a read error, as a truncated file).
    bool next(std::string &line);

private:
    gzFile file_;
};

/// Writes `text` to `path` whole or not at all (through `path`.tmp, then a rename), gzip-compressed when the
/// name ends in ".gz". Returns an empty string, or what failed ("cannot write X (disk full?)").
std::string write_text_file(const std::string &path, const std::string &text);

}  // namespace worldtune
