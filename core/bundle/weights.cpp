// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/weights.h"
#include "bundle/text.h"
#include "bundle/bundle.h"

#include <zip.h>

#include <cstdio>
#include <memory>
#include <vector>

#include <unistd.h>

namespace AotStudio::Bundle {

namespace fs = std::filesystem;

namespace {

constexpr const char *kWeightsDir = "/data/weights/"; // torch.export.pt2_archive.constants.WEIGHTS_DIR under the archive's top folder

} // namespace

std::map<std::string, BucketWeight> shareWeights(const fs::path &package, const fs::path &bundleRoot, const RawWeightWriter &toRaw)
{
    int code = 0;
    zip_t *z = zip_open(package.c_str(), ZIP_CHECKCONS, &code);
    if (!z) {
        zip_error_t e;
        zip_error_init_with_code(&e, code);
        const std::string why = zip_error_strerror(&e);
        zip_error_fini(&e);
        throw BundleError("cannot open package " + quoted(package) + " to share its weights: " + why);
    }
    auto fail = [&](const std::string &what) {
        const std::string msg = "cannot share the weights of package " + quoted(package) + ": " + what;
        zip_discard(z);
        throw BundleError(msg);
    };
    std::map<std::string, BucketWeight> moved;
    const fs::path dir = bundleRoot / kSharedWeightsDir;
    std::error_code ec;
    const zip_int64_t count = zip_get_num_entries(z, 0);
    std::vector<char> buffer(1 << 20);
    for (zip_int64_t i = 0; i < count; ++i) {
        const char *rawName = zip_get_name(z, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW);
        if (!rawName)
            continue;
        const std::string name = rawName;
        const auto at = name.find(kWeightsDir);
        if (at == std::string::npos || name.back() == '/')
            continue;
        const std::string file = name.substr(at + std::string(kWeightsDir).size());
        if (file.empty() || file.find('/') != std::string::npos)
            continue;
        fs::create_directories(dir, ec);
        const fs::path partial = dir / (".partial-" + std::to_string(::getpid()) + "-" + file);
        {
            zip_file_t *in = zip_fopen_index(z, static_cast<zip_uint64_t>(i), 0);
            if (!in)
                fail(name + ": " + zip_strerror(z));
            std::unique_ptr<std::FILE, decltype(&std::fclose)> out(std::fopen(partial.c_str(), "wb"), &std::fclose);
            if (!out) {
                zip_fclose(in);
                fail("cannot write " + quoted(partial));
            }
            zip_int64_t n = 0;
            while ((n = zip_fread(in, buffer.data(), buffer.size())) > 0) {
                if (std::fwrite(buffer.data(), 1, static_cast<std::size_t>(n), out.get()) != static_cast<std::size_t>(n)) {
                    zip_fclose(in);
                    fail("cannot write " + quoted(partial) + " (disk full?)");
                }
            }
            zip_fclose(in);
            if (n < 0 || std::fflush(out.get()) != 0)
                fail(name + ": read or write error");
        }
        const fs::path raw = dir / (".partial-" + std::to_string(::getpid()) + "-" + file + ".bin");
        BucketWeight weight;
        try {
            weight = toRaw(partial, raw);
        } catch (const BundleError &e) {
            fs::remove(partial, ec);
            fs::remove(raw, ec);
            fail(name + ": " + e.what());
        }
        fs::remove(partial, ec);
        const std::string sha = sha256File(raw);
        const fs::path target = dir / (sha + ".bin");
        if (fs::exists(target, ec))
            fs::remove(raw, ec); // another bucket stored the same weight
        else
            fs::rename(raw, target, ec);
        if (ec)
            fail("cannot store " + quoted(target) + ": " + ec.message());
        weight.file = std::string(kSharedWeightsDir) + "/" + sha + ".bin";
        moved[file] = weight;
        if (zip_delete(z, static_cast<zip_uint64_t>(i)) != 0)
            fail(name + ": " + zip_strerror(z));
    }
    if (moved.empty()) {
        zip_discard(z); // unchanged
        return moved;
    }
    if (zip_close(z) != 0)
        fail(zip_strerror(z));
    return moved;
}

} // namespace AotStudio::Bundle
