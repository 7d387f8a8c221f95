// Gzip-or-plain text files (see TextFile.h).
#include "common/TextFile.h"

#include <cstdio>
#include <fstream>

namespace worldtune {

GzLines::GzLines(const std::string &path) : file_(gzopen(path.c_str(), "rb")) {}

GzLines::~GzLines() {
    if (file_) gzclose(file_);
}

bool GzLines::next(std::string &line) {
    line.clear();
    char buf[1 << 16];
    while (gzgets(file_, buf, sizeof buf)) {
        line += buf;
        if (!line.empty() && line.back() == '\n') {
            line.pop_back();
            return true;
        }
    }
    return !line.empty();
}

namespace {

bool ends_in_gz(const std::string &path) { return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0; }

std::string write_gzip(const std::string &path, const std::string &text) {
    gzFile out = gzopen(path.c_str(), "wb9");
    if (!out) return "cannot write " + path;
    const bool ok = gzwrite(out, text.data(), unsigned(text.size())) == int(text.size());
    if (gzclose(out) != Z_OK || !ok) return "cannot write " + path + " (disk full?)";
    return "";
}

std::string write_plain(const std::string &path, const std::string &text) {
    std::ofstream out(path, std::ios::trunc);
    if (!out) return "cannot write " + path;
    out << text;
    out.flush();
    if (!out) return "cannot write " + path + " (disk full?)";
    return "";
}

}  // namespace

std::string write_text_file(const std::string &path, const std::string &text) {
    const std::string tmp = path + ".tmp";
    const std::string failed = ends_in_gz(path) ? write_gzip(tmp, text) : write_plain(tmp, text);
    if (!failed.empty()) return failed;
    if (std::rename(tmp.c_str(), path.c_str()) != 0) return "cannot rename " + tmp + " to " + path;
    return "";
}

}  // namespace worldtune
