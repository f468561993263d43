// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A torch.save archive checked before LibTorch's reader sees it (no torch here). LibTorch 2.14's
// torch::jit::pickle_load trusts what the file says: its miniz reads past the buffer on a corrupt
// central directory, and its Unpickler allocates from the pickle's own fields (a memo index of
// LONG_BINPUT, a BINBYTES8 length; pytorch#185443): a 1.6 KB file asks for tens of GB. Found by
// tests/fuzz/fuzz_input.cpp; aotstudio-run's --input and a package's pickled weights go through here.

#include <cstdint>
#include <string>
#include <string_view>

namespace AotStudio::Bundle {

/// Largest data.pkl checkTorchSave() reads: 64 MiB (a pickle of tensor metadata is kilobytes; the
/// tensors' bytes are other entries).
constexpr std::uint64_t kMaxPickleBytes = std::uint64_t(64) << 20;

/// Checks the torch.save archive `bytes` (zip format, `_use_new_zipfile_serialization`, the
/// default since torch 1.6): checkZip() (consistency, names, sizes), then the pickle program in
/// `<archive>/data.pkl` walked opcode by opcode (Python's pickletools table): every opcode is
/// one the pickle protocol defines, every length fits in what is left of the stream, and memo
/// indices stay below the number of opcodes so far (a pickler numbers its memo from 0, one entry
/// per put), so nothing LibTorch allocates from the stream can exceed the stream's own size.
/// Throws BundleError saying what is wrong and where (opcode byte offset); `name` is used in
/// messages ("zip `name`").
void checkTorchSave(std::string_view bytes, const std::string &name);

/// The pickle walk of checkTorchSave() alone, on `pickle` (exposed for tests and the fuzz target).
/// `name` names the stream in messages.
void checkPickle(std::string_view pickle, const std::string &name);

} // namespace AotStudio::Bundle
