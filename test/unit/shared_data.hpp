// Third-party test data from ../shared/data beside the checkout (the
// Makefile's IDGEN_SHARED_DATA_DIR; docs/development.md, "Where test data
// comes from"). A missing file is a skip that names its path, or a failure
// under CI=true. Test code only.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "json_reader.hpp"

namespace idgen::test {

inline std::string shared_data_path(const std::string &relative) {
    return std::string(IDGEN_SHARED_DATA_DIR) + "/" + relative;
}

// The parsed file, or nullopt when it cannot be read.
inline std::optional<Json> read_shared_json(const std::string &relative) {
    std::ifstream in(shared_data_path(relative));
    if (!in) return std::nullopt;
    std::stringstream text;
    text << in.rdbuf();
    return JsonReader(text.str()).read();
}

inline bool shared_data_required() {
    const char *ci = std::getenv("CI");
    return ci != nullptr && std::strcmp(ci, "true") == 0;
}

// The parsed file, or nullopt after recording the skip (the failure under
// CI=true): the caller returns at once.
inline std::optional<Json> shared_json(const std::string &relative) {
    std::optional<Json> json = read_shared_json(relative);
    if (!json) {
        if (shared_data_required())
            ADD_FAILURE() << "missing " << shared_data_path(relative) << ": required under CI=true";
        else
            [&] { GTEST_SKIP() << "missing " << shared_data_path(relative); }();
    }
    return json;
}

}  // namespace idgen::test

// Declares const Json &var, the file ../shared/data/RELATIVE; skips the test
// (fails it under CI=true) when the file is missing.
#define IDGEN_SHARED_JSON(var, relative)                                                    \
    std::optional<idgen::test::Json> var##_file = idgen::test::read_shared_json(relative);  \
    if (!var##_file) {                                                                      \
        if (idgen::test::shared_data_required())                                            \
            FAIL() << "missing " << idgen::test::shared_data_path(relative)                 \
                   << ": required under CI=true";                                           \
        GTEST_SKIP() << "missing " << idgen::test::shared_data_path(relative);              \
    }                                                                                       \
    const idgen::test::Json &var = *var##_file
