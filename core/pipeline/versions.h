// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Versions recorded in results besides torch's (FORMAT.md: `torchao_version`), so that two jobs can
// be compared (aotstudio-cli compare).

#include "protocol/messages.h"

namespace AotStudio::Pipeline {

/// The installed torchao's version ("0.18.0"), from its distribution metadata (the frontend's
/// versions.py; nothing is imported); null when torchao is not installed or the frontend cannot
/// say. Call on the engine's worker thread (it runs Python). Never throws.
Protocol::Json torchaoVersion();

} // namespace AotStudio::Pipeline
