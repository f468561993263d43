// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: an `aotstudio-run --input FILE` from outside (a torch.save archive: zip + pickle),
// read by InputFile::read as aotstudio-run reads it, without or with the model's input names.
// Oracles: only Runtime::RuntimeError is thrown (LibTorch's own c10::Error must not escape); a
// file that reads holds at least one tensor, each with non-negative sizes; the description and
// the refusal print as aotstudio-run --json prints them (Bundle::dumpJson). Links LibTorch: its unpickler is fuzzed
// through our reader, but only our code is instrumented.
#include "bundle/text.h"
#include "fuzzutil.h"
#include "runtime/aotirunner.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using namespace AotStudio;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto file = FuzzUtil::scratch() / "in.pt";
    FuzzUtil::writeFile(file, std::string_view(reinterpret_cast<const char *>(data), size));
    // Without the model's names for inputs of odd length, with them for even ones: one read per
    // input (LibTorch's reader is the slow part), both paths covered.
    static const std::vector<std::string> names = {"x", "y"};
    const std::vector<std::string> order = size % 2 ? std::vector<std::string>() : names;
    {
        try {
            const auto in = Runtime::InputFile::read(file.string(), order);
            const auto info = in->info();
            if (info.empty())
                FuzzUtil::fail("InputFile::read() returned no tensors");
            nlohmann::json j = nlohmann::json::array();
            for (const auto &t : info) {
                for (const long long s : t.shape)
                    if (s < 0)
                        FuzzUtil::fail("a tensor with a negative size");
                j.push_back({{"shape", t.shape}, {"dtype", t.dtype}});
            }
            (void)Bundle::dumpJson(j); // as aotstudio-run --json prints it
        } catch (const Runtime::RuntimeError &e) {
            (void)Bundle::dumpJson(nlohmann::json{{"ok", false}, {"error", e.what()}}); // aotstudio-run's refusal
        }
    }
    return 0;
}
