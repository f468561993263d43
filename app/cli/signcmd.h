// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Signing on the command line (core/runtime/BUNDLE.md "Signature"): `aotstudio-cli keygen`, the
// check of `export --sign KEY`, and the trust store of `inspect --trust`.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace AotStudio::Bundle {
class TrustStore;
}

namespace AotStudio::Cli {

/// Options of `aotstudio-cli keygen KEYFILE`.
struct KeygenOptions {
    std::string keyFile;
    bool json = false;
};

/// Add the options of `keygen` to its subcommand; their values land in `options`.
void addKeygenOptions(CLI::App &cmd, KeygenOptions &options);

/// Write a new Ed25519 key pair: KEYFILE (private, mode 0600) and KEYFILE.pub, and print the key id
/// and how to use both (the JSON envelope with --json). Exit status 0, or 1 with one line on stderr
/// when a file exists or cannot be written.
int runKeygen(const KeygenOptions &options);

/// The check of `export --sign KEY` before any compile starts: nullopt when KEY is a readable Ed25519
/// private key, else the line to print (naming the file and what to do).
std::optional<std::string> checkSigningKey(const std::string &keyFile);

/// The trust store of `--trust` values, or of $AOTSTUDIO_TRUST when there are none. Returns nullopt
/// after printing "aotstudio-cli: <command>: --trust: <why>" on stderr when it cannot be read.
std::optional<Bundle::TrustStore> loadTrustStore(const std::vector<std::string> &trustPaths, const char *command);

} // namespace AotStudio::Cli
