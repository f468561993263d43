// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `aotstudio-cli inspect`: describe a bundle or a .pt2 archive without loading any native code.
// .pt2 archives are read with libzip (the same reader as bundles): it lists entries with their
// sizes and reads the small JSON records, needs no torch headers, and cannot run anything.

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace AotStudio::Bundle {

struct Manifest;
class TrustStore;

/// Describe a .pt2 archive. Returns
/// {"path", "kind": "aoti_package" | "exported_program" | "unknown", "archive": top-level record
///  name, "archive_format", "archive_version", "data_version", "byteorder" (strings, when present),
///  "entries": [{"name", "bytes", "compressed_bytes"}], "bytes": total uncompressed,
///  "aoti": {"models": {NAME: {"metadata": {AOTI_DEVICE_KEY...}, "shared_objects": [...],
///           "kernels": N (entries of kernel_information.json), "files": N}}}      (AOTI packages)
///  "exported_program": {"models": {NAME: {"schema_version", "torch_version", "nodes",
///           "inputs", "outputs", "ops": {target: count}}}}}                     (ExportedPrograms)
/// JSON records over 64 MiB are skipped. Throws BundleError naming the file when it is not a
/// readable zip (truncated, corrupt, not a zip).
nlohmann::json inspectPt2(const std::filesystem::path &path);

/// Describe a bundle directory or zip: {"path", "root", "zip": bool, "format_version", "model",
/// "device", "compute_capability", "torch_version", "cuda_version", "quantization", "producer",
/// "created", "pad_safe", "inputs", "outputs", "buckets": [...], "files": N, "bytes": total,
/// "problems": ["path: what", ...], "ok": bool}. With `runsHere` (e.g. checkCompatible() bound to
/// this machine's LibTorch and GPU), also "runs_here": {"ok": bool, "reasons": [...]}. Always
/// "signature": SignatureCheck::toJson() against `trust` (none: no trust store) plus "summary"
/// (describeSignature()), "refused_by_trust" (bool: the refusal is refusalIsTrust()'s) and
/// "refused" (signatureRefusal() with `allowUnsigned`, or null): what
/// aotstudio-run would say with the same trust store.
/// Verification problems are reported, not thrown; throws BundleError when there is no readable
/// manifest or the zip cannot be extracted.
nlohmann::json inspectBundle(const std::filesystem::path &path,
                             const std::function<std::vector<std::string>(const Manifest &)> &runsHere = {},
                             const TrustStore *trust = nullptr, bool allowUnsigned = false);

} // namespace AotStudio::Bundle
