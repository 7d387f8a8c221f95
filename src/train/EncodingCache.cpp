#include "train/EncodingCache.h"

#include "common/Hash.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unordered_map>

namespace worldtune {

namespace {

constexpr char kKeysMagic[8] = {'W', 'T', 'E', 'N', 'C', '0', '1', '\0'};


struct Matrix {
    std::vector<std::vector<float>> rows;
    bool ok = false;
};

Matrix read_matrix(const std::string &path, int dim) {
    Matrix m;
    std::ifstream in(path, std::ios::binary);
    uint64_t header[2] = {0, 0};
    in.read(reinterpret_cast<char *>(header), sizeof header);
    if (!in || header[1] != uint64_t(dim)) return m;
    m.rows.assign(size_t(header[0]), std::vector<float>(size_t(dim)));
    for (auto &r : m.rows) in.read(reinterpret_cast<char *>(r.data()), std::streamsize(size_t(dim) * sizeof(float)));
    m.ok = bool(in);
    if (!m.ok) m.rows.clear();
    return m;
}

/// The token hashes of a keys file written for `fingerprint`; empty when absent, stale or damaged.
std::vector<uint64_t> read_keys(const std::string &path, uint64_t fingerprint, bool &present) {
    std::ifstream in(path, std::ios::binary);
    present = bool(in);
    char magic[8] = {};
    uint64_t header[2] = {0, 0};
    in.read(magic, sizeof magic);
    in.read(reinterpret_cast<char *>(header), sizeof header);
    if (!in || std::memcmp(magic, kKeysMagic, sizeof magic) != 0 || header[0] != fingerprint) return {};
    std::vector<uint64_t> keys(static_cast<size_t>(header[1]));
    in.read(reinterpret_cast<char *>(keys.data()), std::streamsize(keys.size() * sizeof(uint64_t)));
    if (!in) return {};
    return keys;
}

template <typename Write>
void write_atomically(const std::string &path, Write write) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        write(out);
        if (!out) throw std::runtime_error("cannot write " + path);
    }
    std::filesystem::rename(tmp, path);
}

}  // namespace

uint64_t file_fingerprint(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return 0;
    uint64_t h = kHashBasis;
    std::vector<char> buf(1 << 16);
    while (in.read(buf.data(), std::streamsize(buf.size())) || in.gcount() > 0)
        h = fnv1a64_bytes(h, buf.data(), size_t(in.gcount()));
    return h;
}

uint64_t token_hash(const std::vector<int32_t> &ids) {
    return fnv1a64_bytes(kHashBasis, ids.data(), ids.size() * sizeof(int32_t));
}

EncodingCache::EncodingCache(std::string matrix_path, std::string keys_path, uint64_t encoder_fingerprint, int dim)
    : matrix_path_(std::move(matrix_path)), keys_path_(std::move(keys_path)), fingerprint_(encoder_fingerprint), dim_(dim) {}

std::vector<std::vector<float>> EncodingCache::lookup(const TokenTexts &ids, std::vector<size_t> &missing) const {
    std::vector<std::vector<float>> out(ids.size(), std::vector<float>(size_t(dim_), 0.0f));
    missing.clear();
    Matrix m = read_matrix(matrix_path_, dim_);
    bool keys_present = false;
    const std::vector<uint64_t> keys = m.ok ? read_keys(keys_path_, fingerprint_, keys_present) : std::vector<uint64_t>{};
    if (m.ok && !keys_present && m.rows.size() == ids.size()) return std::move(m.rows);  // legacy cache, same corpus
    std::unordered_map<uint64_t, size_t> row_of;
    if (keys.size() == m.rows.size())
        for (size_t r = 0; r < keys.size(); r++) row_of.emplace(keys[r], r);
    for (size_t i = 0; i < ids.size(); i++) {
        const auto it = row_of.find(token_hash(ids[i]));
        if (it == row_of.end()) missing.push_back(i);
        else out[i] = m.rows[it->second];
    }
    return out;
}

void EncodingCache::save(const TokenTexts &ids, const std::vector<std::vector<float>> &rows) const {
    if (ids.size() != rows.size()) throw std::runtime_error("encoding cache: " + std::to_string(rows.size()) + " rows for " +
                                                            std::to_string(ids.size()) + " states");
    write_atomically(matrix_path_, [&](std::ofstream &out) {
        const uint64_t header[2] = {rows.size(), uint64_t(dim_)};
        out.write(reinterpret_cast<const char *>(header), sizeof header);
        for (const auto &r : rows) {
            if (int(r.size()) != dim_) throw std::runtime_error("encoding cache: a row of " + std::to_string(r.size()) + " floats");
            out.write(reinterpret_cast<const char *>(r.data()), std::streamsize(r.size() * sizeof(float)));
        }
    });
    write_atomically(keys_path_, [&](std::ofstream &out) {
        const uint64_t header[2] = {fingerprint_, rows.size()};
        out.write(kKeysMagic, sizeof kKeysMagic);
        out.write(reinterpret_cast<const char *>(header), sizeof header);
        for (const auto &t : ids) {
            const uint64_t h = token_hash(t);
            out.write(reinterpret_cast<const char *>(&h), sizeof h);
        }
    });
}

}  // namespace worldtune
