// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// torch.save files without torch, for the lite runtime's --input and --save-outputs: the zip
// format torch.save writes by default (since torch 1.6), holding a pickle of a tensor, a list or
// tuple of tensors, or a dict of name -> tensor. The reader runs Bundle::checkTorchSave() (zip and
// pickle checks) first, then a small unpickler that knows only the opcodes and globals such a pickle
// uses (torch._utils._rebuild_tensor_v2, torch.<Type>Storage, collections.OrderedDict); anything
// else is refused by name. The writer writes what torch.save writes for a tuple of tensors, so
// torch.load() and LibTorch's reader both read it.

#include "runtime/lite/shim.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace AotStudio::Lite {

/// The tensors of a torch.save file, in the file's order (a dict's in its insertion order, with
/// `names`; empty names otherwise).
struct TensorFile {
    std::vector<std::shared_ptr<Tensor>> tensors;
    std::vector<std::string> names;
};

/// Read `path`. Throws std::runtime_error naming the file and what is wrong (not a torch.save zip,
/// a corrupt archive, a pickle of something other than tensors, a storage entry shorter than its
/// tensors need).
TensorFile readTensorFile(const std::filesystem::path &path);

/// Write `tensors` as torch.save((t0, t1, ...), path) would: each tensor's elements (copied
/// contiguous), a protocol-2 pickle of _rebuild_tensor_v2 calls, stored uncompressed. Written to a
/// temporary name beside `path` and renamed. Throws std::runtime_error naming the file on an I/O
/// error or a dtype torch.save has no storage class for.
void writeTensorFile(const std::filesystem::path &path, const std::vector<const Tensor *> &tensors);

} // namespace AotStudio::Lite
