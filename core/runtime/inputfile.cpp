// SPDX-License-Identifier: GPL-3.0-or-later
// Tensors from torch.save files: `aotstudio-run --input` (InputFile) and the weight files of a
// package compiled with pickle_weights (aotirunner.cpp). tests/fuzz/fuzz_input.cpp fuzzes read().
#include "runtime/tensorfile_p.h"

#include "bundle/bundle.h"
#include "bundle/torchsave.h"

#include <torch/csrc/jit/serialization/pickle.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace AotStudio::Runtime {

namespace Detail {

std::string firstLine(std::string what)
{
    if (const auto nl = what.find('\n'); nl != std::string::npos)
        what.resize(nl); // c10 errors append a C++ backtrace
    return what;
}

std::string dtypeName(at::ScalarType t)
{
    switch (t) {
    case at::kFloat: return "float32";
    case at::kHalf: return "float16";
    case at::kBFloat16: return "bfloat16";
    case at::kDouble: return "float64";
    case at::kLong: return "int64";
    case at::kInt: return "int32";
    case at::kShort: return "int16";
    case at::kChar: return "int8";
    case at::kByte: return "uint8";
    case at::kBool: return "bool";
    default: return std::string(c10::toString(t));
    }
}

c10::IValue loadPickled(const std::string &path, const std::string &what)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw RuntimeError(what + " '" + path + "' cannot be opened" + (ec ? ": " + ec.message() : std::string()));
    if (!ec && size > kMaxPickledBytes) // a pipe has no size: read as it comes
        throw RuntimeError(what + " '" + path + "' has " + std::to_string(size) + " bytes, more than the " +
                           std::to_string(kMaxPickledBytes >> 30) + " GiB this reads");
    std::vector<char> bytes;
    if (!ec)
        bytes.reserve(static_cast<std::size_t>(size));
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    // LibTorch's reader trusts the archive (its miniz read past the buffer on a corrupt central
    // directory, its Unpickler allocates whatever a memo index or length says: fuzz_input): the
    // zip and the pickle program are checked first, on the very bytes the unpickler then gets.
    try {
        Bundle::checkTorchSave(std::string_view(bytes.data(), bytes.size()), "'" + path + "'");
    } catch (const Bundle::BundleError &e) {
        throw RuntimeError(what + " '" + path + "' is not a torch.save file: " + e.what());
    }
    try {
        return torch::jit::pickle_load(bytes);
    } catch (const std::exception &e) {
        throw RuntimeError(what + " '" + path + "' is not a torch.save file: " + firstLine(e.what()));
    }
}

} // namespace Detail

using Detail::dtypeName;
using Detail::firstLine;

InputFile::InputFile()
    : d(std::make_unique<Private>())
{
}

InputFile::~InputFile() = default;

std::shared_ptr<const InputFile> InputFile::read(const std::string &path, const std::vector<std::string> &order)
{
    const c10::IValue value = Detail::loadPickled(path, "input file");
    std::shared_ptr<InputFile> file(new InputFile);
    const auto add = [&](const c10::IValue &v) {
        if (!v.isTensor())
            throw RuntimeError("input file '" + path + "' holds a " + v.tagKind() +
                               ", not tensors; save a tensor or a list/tuple of tensors");
        file->d->tensors.push_back(v.toTensor());
    };
    if (value.isTensor())
        add(value);
    else if (value.isTensorList())
        for (const auto &t : value.toTensorList())
            file->d->tensors.push_back(static_cast<at::Tensor>(t));
    else if (value.isList())
        for (const auto &v : value.toListRef())
            add(v);
    else if (value.isTuple())
        for (const auto &v : value.toTupleRef().elements())
            add(v);
    else if (value.isGenericDict()) {
        // Named tensors: arranged by the model's input names when they are known.
        std::vector<std::pair<std::string, c10::IValue>> named;
        for (const auto &entry : value.toGenericDict()) {
            if (!entry.key().isString())
                throw RuntimeError("input file '" + path + "' holds a dict with a " + entry.key().tagKind() +
                                   " key; name each tensor with a string (the model's input names)");
            named.emplace_back(entry.key().toStringRef(), entry.value());
        }
        const bool named_order = !order.empty() && std::all_of(order.begin(), order.end(), [](const auto &n) { return !n.empty(); });
        if (!named_order) {
            for (const auto &[name, v] : named)
                add(v);
        } else {
            std::string takes;
            for (const auto &n : order)
                takes += (takes.empty() ? "" : ", ") + n;
            for (const auto &[name, v] : named)
                if (std::find(order.begin(), order.end(), name) == order.end())
                    throw RuntimeError("input file '" + path + "' names the input '" + name +
                                       "', which the model does not take; its inputs: " + takes);
            for (const auto &n : order) {
                const auto it = std::find_if(named.begin(), named.end(), [&](const auto &p) { return p.first == n; });
                if (it == named.end())
                    throw RuntimeError("input file '" + path + "' lacks the input '" + n + "'; the model takes: " + takes);
                add(it->second);
            }
        }
    } else
        add(value);
    if (file->d->tensors.empty())
        throw RuntimeError("input file '" + path + "' holds no tensors");
    return file;
}

std::vector<TensorInfo> InputFile::info() const
{
    std::vector<TensorInfo> out;
    for (const auto &t : d->tensors) {
        TensorInfo i;
        for (auto s : t.sizes())
            i.shape.push_back(s);
        i.dtype = dtypeName(t.scalar_type());
        out.push_back(std::move(i));
    }
    return out;
}


} // namespace AotStudio::Runtime
