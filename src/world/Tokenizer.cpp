#include "world/Tokenizer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>

namespace worldtune {

namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

const char *const kSpecials[] = {"<pad>", "<unk>", "<cls>", "<mask>"};

std::string length_token(size_t digits) { return "<n" + std::to_string(digits) + ">"; }
std::string digit_token(char d) { return std::string("<d") + d + ">"; }

/// The pieces of one lexed word: names split at dots and before trailing digits; numbers as described in
/// the header. Pieces are words of the vocabulary (numbers already in their token form).
void pieces_of(const std::string &word, std::vector<std::string> &out) {
    auto number = [&](const std::string &digits_text) {
        size_t start = digits_text.find_first_not_of('0');
        const std::string d = start == std::string::npos ? "0" : digits_text.substr(start);
        if (d.size() <= 3 && std::stoi(d) < Tokenizer::kSmallInts) {
            out.push_back(d);
            return;
        }
        const std::string kept = d.substr(0, Tokenizer::kMaxDigits);
        out.push_back(length_token(d.size() > size_t(Tokenizer::kMaxDigits) ? Tokenizer::kMaxDigits : d.size()));
        for (char c : kept) out.push_back(digit_token(c));
    };
    if (word.empty()) return;
    if (digit(word[0])) {
        const size_t dot = word.find('.');
        if (dot == std::string::npos) {
            number(word);
        } else {
            out.push_back("<float>");
            number(word.substr(0, dot));
        }
        return;
    }
    if (!name_start(word[0])) {
        out.push_back(word);
        return;
    }
    size_t begin = 0;
    while (begin <= word.size()) {
        size_t end = word.find('.', begin);
        if (end == std::string::npos) end = word.size();
        const std::string part = word.substr(begin, end - begin);
        if (!part.empty()) {
            size_t stem = part.size();
            while (stem > 0 && digit(part[stem - 1])) stem--;
            if (stem == 0) {
                number(part);
            } else {
                out.push_back(part.substr(0, stem));
                if (stem < part.size()) number(part.substr(stem));
            }
        }
        if (end < word.size()) out.push_back(".");
        begin = end + 1;
    }
}

}  // namespace

std::vector<std::string> Tokenizer::lex(const std::string &text) {
    std::vector<std::string> words;
    size_t i = 0;
    const size_t n = text.size();
    while (i < n) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            i++;
        } else if (name_start(c)) {
            size_t j = i + 1;
            while (j < n && (name_char(text[j]) || (text[j] == '.' && j + 1 < n && name_char(text[j + 1])))) j++;
            words.push_back(text.substr(i, j - i));
            i = j;
        } else if (digit(c)) {
            size_t j = i + 1;
            while (j < n && digit(text[j])) j++;
            if (j + 1 < n && text[j] == '.' && digit(text[j + 1])) {
                j++;
                while (j < n && digit(text[j])) j++;
                if (j < n && (text[j] == 'e' || text[j] == 'E')) {  // exponent of a float literal
                    size_t k = j + 1;
                    if (k < n && (text[k] == '-' || text[k] == '+')) k++;
                    if (k < n && digit(text[k])) {
                        j = k;
                        while (j < n && digit(text[j])) j++;
                    }
                }
                if (j < n && text[j] == 'f') j++;
            }
            words.push_back(text.substr(i, j - i));
            i = j;
        } else {
            static const char *const kTwoChar[] = {"==", "!=", "<=", ">=", "&&", "||"};
            bool two = false;
            for (const char *op : kTwoChar)
                if (i + 1 < n && text[i] == op[0] && text[i + 1] == op[1]) two = true;
            words.push_back(text.substr(i, two ? 2 : 1));
            i += two ? 2 : 1;
        }
    }
    return words;
}

void Tokenizer::add_word(const std::string &w) {
    if (ids_.count(w)) return;
    ids_[w] = int(words_.size());
    words_.push_back(w);
}

namespace {

/// Word pieces of a corpus by count, most frequent first (ties in word order).
std::vector<std::pair<std::string, int64_t>> ranked_pieces(const std::vector<std::string> &corpus) {
    std::map<std::string, int64_t> counts;
    std::vector<std::string> pieces;
    for (const std::string &text : corpus) {
        for (const std::string &w : Tokenizer::lex(text)) {
            pieces.clear();
            pieces_of(w, pieces);
            for (const std::string &p : pieces) counts[p]++;
        }
    }
    std::vector<std::pair<std::string, int64_t>> ranked(counts.begin(), counts.end());
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    return ranked;
}

}  // namespace

Tokenizer Tokenizer::extended(const std::vector<std::string> &texts, int max_vocab, int min_count) const {
    Tokenizer t = *this;
    t.encoder_words_ = encoder_words();
    for (const auto &[w, count] : ranked_pieces(texts)) {
        if (t.vocab_size() >= max_vocab || count < min_count) break;
        t.add_word(w);
    }
    return t;
}

Tokenizer Tokenizer::train(const std::vector<std::string> &corpus, int max_vocab, int min_count) {
    Tokenizer t;
    for (const char *s : kSpecials) t.add_word(s);
    for (int v = 0; v < kSmallInts; v++) t.add_word(std::to_string(v));
    for (char d = '0'; d <= '9'; d++) t.add_word(digit_token(d));
    for (int len = 1; len <= kMaxDigits; len++) t.add_word(length_token(size_t(len)));
    t.add_word("<float>");
    for (const auto &[w, count] : ranked_pieces(corpus)) {
        if (t.vocab_size() >= max_vocab) break;
        if (count < min_count) break;
        t.add_word(w);
    }
    return t;
}

int Tokenizer::id(const std::string &w) const {
    auto it = ids_.find(w);
    return it == ids_.end() ? kUnk : it->second;
}

const std::string &Tokenizer::word(int id) const {
    return id >= 0 && id < vocab_size() ? words_[size_t(id)] : words_[kUnk];
}

void Tokenizer::append_ids(const std::string &w, std::vector<int32_t> &out) const {
    std::vector<std::string> pieces;
    pieces_of(w, pieces);
    for (const std::string &p : pieces) out.push_back(id(p));
}

std::vector<int32_t> Tokenizer::encode(const std::string &text) const {
    std::vector<int32_t> ids;
    ids.reserve(text.size() / 3);
    for (const std::string &w : lex(text)) append_ids(w, ids);
    return ids;
}

void Tokenizer::save(const std::string &path) const {
    nlohmann::json j = {{"format", "worldtune-tokenizer"}, {"version", kFileVersion}, {"words", words_}};
    if (encoder_words() != vocab_size()) j["encoder_words"] = encoder_words();
    std::ofstream out(path);
    out << j.dump() << "\n";
    if (!out) throw TokenizerError("tokenizer: cannot write " + path);
}

Tokenizer Tokenizer::load(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw TokenizerError("tokenizer: cannot read " + path);
    nlohmann::json j;
    try {
        in >> j;
    } catch (const std::exception &) {
        throw TokenizerError("tokenizer: " + path + " is not a worldtune tokenizer file");
    }
    if (!j.is_object() || j.value("format", "") != "worldtune-tokenizer")
        throw TokenizerError("tokenizer: " + path + " is not a worldtune tokenizer file");
    if (j.value("version", -1) != kFileVersion)
        throw TokenizerError("tokenizer: " + path + " has version " + std::to_string(j.value("version", -1)) +
                             ", this build reads version " + std::to_string(kFileVersion));
    Tokenizer t;
    try {
        for (const auto &w : j.at("words")) t.add_word(w.get<std::string>());
    } catch (const std::exception &) {
        throw TokenizerError("tokenizer: " + path + ": malformed word list");
    }
    if (t.vocab_size() < 4 || t.word(kMask) != "<mask>") throw TokenizerError("tokenizer: " + path + ": malformed word list");
    const nlohmann::json &enc = j.contains("encoder_words") ? j["encoder_words"] : nlohmann::json(t.vocab_size());
    if (!enc.is_number_integer() || enc.get<int64_t>() < 4 || enc.get<int64_t>() > t.vocab_size())
        throw TokenizerError("tokenizer: " + path + ": encoder_words must be an integer from 4 to the number of words");
    t.encoder_words_ = enc.get<int>();
    return t;
}

}  // namespace worldtune
