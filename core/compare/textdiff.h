// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Line diffs of generated kernel source, through dtl (Debian libdtl-dev, header-only, BSD-3-Clause).

#include <string>

namespace AotStudio::Compare {

/// A unified diff of `a` -> `b` by lines ("--- labelA", "+++ labelB", then "@@ -l,n +l,n @@" hunks
/// with 3 lines of context, dtl's fixed DTL_CONTEXT_SIZE), as `diff -u` prints it; empty when the texts are
/// equal. Computed by dtl (Wu's O(NP) algorithm). Texts longer than `maxLines` lines on either side
/// are not diffed: the result then says so in one line (a kernel's source is a few hundred lines).
std::string unifiedDiff(const std::string &a, const std::string &b, const std::string &labelA,
    const std::string &labelB, std::size_t maxLines = 20000);

} // namespace AotStudio::Compare
