// A small JSON reader for the unit tests (test/data/id_vectors.json): objects
// keep their keys' order, numbers keep their digits as text, \uXXXX escapes
// (with surrogate pairs) become UTF-8. Test code only: it throws on bad input.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace idgen::test {

struct Json {
    enum Kind { null, boolean, number, string, array, object } kind = null;
    std::string text;  // a string's value, a number's digits, "true"/"false"
    std::vector<Json> items;                            // array
    std::vector<std::pair<std::string, Json>> members;  // object, in order

    const Json *find(const std::string &key) const {
        for (const auto &m : members)
            if (m.first == key) return &m.second;
        return nullptr;
    }
    const Json &operator[](const std::string &key) const {
        const Json *v = find(key);
        if (!v) throw std::runtime_error("no member " + key);
        return *v;
    }
};

class JsonReader {
  public:
    explicit JsonReader(const std::string &text) : s_(text) {}

    Json read() {
        Json v = value();
        blank();
        if (i_ != s_.size()) fail("text after the value");
        return v;
    }

  private:
    const std::string &s_;
    std::size_t i_ = 0;

    [[noreturn]] void fail(const std::string &why) {
        throw std::runtime_error("JSON at byte " + std::to_string(i_) + ": " + why);
    }
    void blank() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
    }
    bool take(char c) {
        blank();
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!take(c)) fail(std::string("expected ") + c);
    }
    bool word(const char *w) {
        std::string ws(w);
        if (s_.compare(i_, ws.size(), ws) != 0) return false;
        i_ += ws.size();
        return true;
    }
    unsigned hex4() {
        if (i_ + 4 > s_.size()) fail("short \\u escape");
        unsigned v = static_cast<unsigned>(std::stoul(s_.substr(i_, 4), nullptr, 16));
        i_ += 4;
        return v;
    }
    static void utf8(std::string &out, std::uint32_t cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }
    std::string string_body() {
        std::string out;
        while (true) {
            if (i_ >= s_.size()) fail("unterminated string");
            char c = s_[i_++];
            if (c == '"') return out;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i_ >= s_.size()) fail("unterminated escape");
            char e = s_[i_++];
            switch (e) {
                case '"': case '\\': case '/': out += e; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    std::uint32_t cp = hex4();
                    if (cp >= 0xD800 && cp < 0xDC00 && word("\\u")) {
                        std::uint32_t low = hex4();
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    }
                    utf8(out, cp);
                    break;
                }
                default: fail("bad escape");
            }
        }
    }
    Json value() {
        blank();
        Json v;
        if (i_ >= s_.size()) fail("no value");
        char c = s_[i_];
        if (c == '{') {
            ++i_;
            v.kind = Json::object;
            if (take('}')) return v;
            do {
                expect('"');
                std::string key = string_body();
                expect(':');
                v.members.emplace_back(key, value());
            } while (take(','));
            expect('}');
        } else if (c == '[') {
            ++i_;
            v.kind = Json::array;
            if (take(']')) return v;
            do v.items.push_back(value());
            while (take(','));
            expect(']');
        } else if (c == '"') {
            ++i_;
            v.kind = Json::string;
            v.text = string_body();
        } else if (word("true") || word("false")) {
            v.kind = Json::boolean;
            v.text = s_[i_ - 1] == 'e' && s_[i_ - 2] == 'u' ? "true" : "false";
        } else if (word("null")) {
            v.kind = Json::null;
            v.text = "null";
        } else {
            std::size_t start = i_;
            while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' ||
                                      s_[i_] == '+' || s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E'))
                ++i_;
            if (start == i_) fail("unexpected character");
            v.kind = Json::number;
            v.text = s_.substr(start, i_ - start);
        }
        return v;
    }
};

}  // namespace idgen::test
