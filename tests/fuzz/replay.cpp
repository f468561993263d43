// SPDX-License-Identifier: GPL-3.0-or-later
// The fuzz targets without libFuzzer: runs LLVMFuzzerTestOneInput once on every file named on the
// command line (folders: every file under them, in sorted order). This is the CTest smoke (label
// fuzz) in the dev build, with the project's own compiler and no sanitizers, so CI replays the
// committed corpora and every regression input in seconds; the real fuzzing (clang, libFuzzer,
// ASan + UBSan) is tools/fuzz.sh. A crash or failed oracle aborts, which fails the test.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg = argv[i];
        if (fs::is_directory(arg)) {
            for (const auto &e : fs::recursive_directory_iterator(arg))
                if (e.is_regular_file())
                    files.push_back(e.path());
        } else if (fs::is_regular_file(arg)) {
            files.push_back(arg);
        } else {
            std::fprintf(stderr, "replay: %s: no such file or folder\n", argv[i]);
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "replay: no inputs (usage: %s FILE_OR_FOLDER...)\n", argv[0]);
        return 2;
    }
    for (const auto &f : files) {
        std::ifstream in(f, std::ios::binary);
        const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        // A fresh copy of exactly `size` bytes, as libFuzzer gives, so reads past the end show.
        const std::vector<std::uint8_t> bytes(data.begin(), data.end());
        LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    }
    std::printf("replay: %zu inputs, no crash\n", files.size());
    return 0;
}
