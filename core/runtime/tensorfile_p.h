// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to core/runtime (includes torch headers): what aotirunner.cpp and inputfile.cpp share.

#include "runtime/aotirunner.h"

#include <ATen/core/ivalue.h>
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

namespace AotStudio::Runtime {

struct InputFile::Private {
    std::vector<at::Tensor> tensors;
};

namespace Detail {

/// The first line of an exception's message (c10 errors append a C++ backtrace).
std::string firstLine(std::string what);
/// "float32", "int64", ... as a bundle manifest names dtypes; c10's name for others.
std::string dtypeName(at::ScalarType t);
/// Largest file loadPickled() reads: 64 GiB (issue 19's limits on what we read: the whole file is
/// read into memory before LibTorch's unpickler sees it).
constexpr std::uintmax_t kMaxPickledBytes = std::uintmax_t(64) << 30;
/// A file written by Python's torch.save, read whole and unpickled by LibTorch
/// (torch::jit::pickle_load: tensors and containers only, no Python objects or code). `what`
/// names the file in errors ("input file", "weight file"). Throws RuntimeError naming the file
/// when it is missing, larger than kMaxPickledBytes, or not a torch.save archive.
c10::IValue loadPickled(const std::string &path, const std::string &what);

} // namespace Detail
} // namespace AotStudio::Runtime
