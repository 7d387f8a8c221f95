// The world model's tokenizer: a lexer for Halide's lowered-statement language with a vocabulary learned
// from a corpus of state texts.
//
// Lexing. Whitespace separates and is dropped (the braces carry the nesting). Operators are tokens
// ("==", "!=", "<=", ">=", "&&", "||" as one, every other punctuation character alone). A name is split at
// its dots ("out.s0.x.x_1" -> out . s0 . x . x_1), and a name part that ends in digits and is not in the
// vocabulary is split into its stem and the number ("t137" -> t 137). Numbers stay meaningful with few
// tokens: an integer below kSmallInts is one token; a larger one becomes a length token "<n4>" followed by
// one token per digit ("1023" -> <n4> 1 0 2 3, one digit away from 1024), so the vocabulary has no
// thousands of numbers. A float literal becomes "<float>" followed by its integer part, and the "f" suffix
// is dropped.
//
// Vocabulary: the special tokens, the small integers, the digit and length tokens, then every word seen
// at least `min_count` times in the training corpus, most frequent first, up to `max_vocab` in all.
// Unknown words map to <unk>. The vocabulary file is JSON: {"format": "worldtune-tokenizer",
// "version": 1, "words": [...], "encoder_words": N} (words in id order, specials included).
//
// Growing. A bundle whose data gains new action kinds (a wider search space) needs their words in the
// transition's vocabulary, but retraining the encoder for words that only actions use is wasted work.
// `extended` appends the new words after the existing ones (old ids keep their meaning) and keeps
// `encoder_words`, the vocabulary the encoder was trained with: the encoder reads later ids as <unk>.
#pragma once

#include "common/OneLineError.h"
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace worldtune {

struct TokenizerError : OneLineError {
    using OneLineError::OneLineError;
};

class Tokenizer {
public:
    static constexpr int kPad = 0, kUnk = 1, kCls = 2, kMask = 3;
    static constexpr int kSmallInts = 128;  ///< integers below this are one token each
    static constexpr int kMaxDigits = 12;   ///< longer integers are cut to their leading digits
    static constexpr int kFileVersion = 1;

    /// The lexer alone: the words of a text, before the vocabulary maps them to ids.
    static std::vector<std::string> lex(const std::string &text);

    /// Learns the vocabulary from texts.
    static Tokenizer train(const std::vector<std::string> &corpus, int max_vocab = 2048, int min_count = 2);

    /// This vocabulary with the words of `texts` it lacks (seen at least `min_count` times, most frequent
    /// first, up to `max_vocab` in all) appended; `encoder_words` stays.
    Tokenizer extended(const std::vector<std::string> &texts, int max_vocab, int min_count) const;

    /// Token ids of a text (no <cls>; the encoder adds its own).
    std::vector<int32_t> encode(const std::string &text) const;
    /// The word of an id ("<unk>" when out of range).
    const std::string &word(int id) const;
    int vocab_size() const { return int(words_.size()); }
    /// The words the encoder was trained with (the first ones); equal to vocab_size() unless extended.
    int encoder_words() const { return encoder_words_ > 0 ? encoder_words_ : vocab_size(); }
    /// The id of a word, or kUnk.
    int id(const std::string &word) const;

    void save(const std::string &path) const;
    /// Throws TokenizerError for a missing file, another format or version.
    static Tokenizer load(const std::string &path);

    bool operator==(const Tokenizer &o) const { return words_ == o.words_ && encoder_words() == o.encoder_words(); }

private:
    void add_word(const std::string &w);
    /// Appends the ids of one lexed word, splitting names and numbers as described above.
    void append_ids(const std::string &word, std::vector<int32_t> &out) const;

    std::vector<std::string> words_;
    std::unordered_map<std::string, int> ids_;
    int encoder_words_ = 0;  ///< 0: all of them
};

}  // namespace worldtune
