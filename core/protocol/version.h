// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The protocol version, the one definition both sides read: the engine sends it in `hello`
// (messages.h) and the studio refuses an engine that sends another (Client::EngineClient). No
// dependencies, so the Qt side includes it without the JSON library.

namespace AotStudio::Protocol {

/// Protocol version sent in `hello` (FORMAT.md "hello"). Bump only when an existing message
/// changes meaning or shape.
inline constexpr int kProtocolVersion = 1;

} // namespace AotStudio::Protocol
