// SPDX-License-Identifier: GPL-3.0-or-later
#include "bundle/torchsave.h"

#include "bundle/bundle.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <vector>

namespace AotStudio::Bundle {

namespace {

/// How an opcode's argument is laid out (pickletools' ArgumentDescriptor, reduced to what the
/// walk needs to step over it and check it).
enum class Arg : std::uint8_t {
    Bad,    ///< not a pickle opcode
    None,   ///< no argument
    Line,   ///< up to and including '\n' (decimal, float, string in text protocols)
    Lines2, ///< two such lines (GLOBAL, INST: module and name)
    U1,     ///< 1 byte
    U2,     ///< 2 bytes
    U4,     ///< 4 bytes
    U8,     ///< 8 bytes
    Len1,   ///< 1-byte length, then that many bytes
    Len4,   ///< 4-byte little-endian length, then that many bytes
    Len8,   ///< 8-byte little-endian length, then that many bytes
};

/// What an opcode does to the memo.
enum class Memo : std::uint8_t { No, PutU1, PutU4, PutLine, PutNext, GetU1, GetU4, GetLine };

struct Op {
    Arg arg = Arg::Bad;
    Memo memo = Memo::No;
};

/// Every opcode of pickle protocols 0-5 (CPython's Lib/pickletools.py `opcodes`).
struct OpTable {
    Op op[256];
};

const OpTable kOps = [] {
    OpTable t{};
    const auto set = [&t](unsigned char c, Arg a, Memo m = Memo::No) { t.op[c] = {a, m}; };
    for (unsigned char c : std::initializer_list<unsigned char>{'(', '.', '0', '1', '2', 'N', 'Q', 'R', 'a', 'b', 'd', '}', 'e', 'l', ']', 'o', 's', 't', ')', 'u'})
        set(c, Arg::None);
    for (unsigned char c : std::initializer_list<unsigned char>{0x81, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8f, 0x90, 0x91, 0x92, 0x93, 0x97, 0x98})
        set(c, Arg::None); // NEWOBJ, TUPLE1-3, NEWTRUE/FALSE, EMPTY_SET, ADDITEMS, FROZENSET, NEWOBJ_EX, STACK_GLOBAL, NEXT_BUFFER, READONLY_BUFFER
    set(0x94, Arg::None, Memo::PutNext); // MEMOIZE
    for (unsigned char c : std::initializer_list<unsigned char>{'F', 'I', 'L', 'P', 'S', 'V'})
        set(c, Arg::Line);
    set('g', Arg::Line, Memo::GetLine); // GET
    set('p', Arg::Line, Memo::PutLine); // PUT
    set('c', Arg::Lines2);              // GLOBAL
    set('i', Arg::Lines2);              // INST
    set('K', Arg::U1);                  // BININT1
    set(0x80, Arg::U1);                 // PROTO
    set(0x82, Arg::U1);                 // EXT1
    set('h', Arg::U1, Memo::GetU1);     // BINGET
    set('q', Arg::U1, Memo::PutU1);     // BINPUT
    set('M', Arg::U2);                  // BININT2
    set(0x83, Arg::U2);                 // EXT2
    set('J', Arg::U4);                  // BININT
    set(0x84, Arg::U4);                 // EXT4
    set('j', Arg::U4, Memo::GetU4);     // LONG_BINGET
    set('r', Arg::U4, Memo::PutU4);     // LONG_BINPUT
    set('G', Arg::U8);                  // BINFLOAT
    set(0x95, Arg::U8);                 // FRAME (a length, but of opcodes that follow in the stream)
    for (unsigned char c : std::initializer_list<unsigned char>{'U', 'C', 0x8c, 0x8a})
        set(c, Arg::Len1); // SHORT_BINSTRING, SHORT_BINBYTES, SHORT_BINUNICODE, LONG1
    for (unsigned char c : std::initializer_list<unsigned char>{'T', 'X', 'B', 0x8b})
        set(c, Arg::Len4); // BINSTRING, BINUNICODE, BINBYTES, LONG4
    for (unsigned char c : std::initializer_list<unsigned char>{0x8d, 0x8e, 0x96})
        set(c, Arg::Len8); // BINUNICODE8, BINBYTES8, BYTEARRAY8
    return t;
}();

std::uint64_t littleEndian(const unsigned char *p, int n)
{
    std::uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

std::string hex(unsigned char c)
{
    static const char digits[] = "0123456789abcdef";
    return std::string("0x") + digits[c >> 4] + digits[c & 15];
}

} // namespace

void checkPickle(std::string_view pickle, const std::string &name)
{
    const auto *data = reinterpret_cast<const unsigned char *>(pickle.data());
    const std::size_t size = pickle.size();
    std::uint64_t memoSize = 0; // entries a well-formed pickler would have put so far
    std::size_t at = 0;
    const auto fail = [&](std::size_t where, const std::string &why) {
        throw BundleError("pickle " + name + ": " + why + " at byte " + std::to_string(where) +
                          " (a corrupt or hostile file; torch.save writes none of this)");
    };
    const auto lineEnd = [&](std::size_t from) {
        const void *nl = from < size ? std::memchr(data + from, '\n', size - from) : nullptr;
        if (!nl)
            fail(from, "a text argument without its end of line");
        return static_cast<std::size_t>(static_cast<const unsigned char *>(nl) - data) + 1;
    };
    const auto decimalLine = [&](std::size_t from, std::size_t end) {
        std::uint64_t v = 0;
        for (std::size_t i = from; i + 1 < end; ++i) {
            if (data[i] < '0' || data[i] > '9' || v > (std::uint64_t(1) << 40))
                fail(from, "a memo index that is not a small decimal number");
            v = v * 10 + (data[i] - '0');
        }
        return v;
    };
    while (at < size) {
        const std::size_t opAt = at;
        const unsigned char code = data[at++];
        const Op op = kOps.op[code];
        std::uint64_t index = 0; // the memo index of a put or get
        switch (op.arg) {
        case Arg::Bad:
            fail(opAt, "byte " + hex(code) + " is not a pickle opcode");
        case Arg::None:
            break;
        case Arg::Line: {
            const std::size_t end = lineEnd(at);
            if (op.memo != Memo::No)
                index = decimalLine(at, end);
            at = end;
            break;
        }
        case Arg::Lines2:
            at = lineEnd(lineEnd(at));
            break;
        case Arg::U1:
        case Arg::U2:
        case Arg::U4:
        case Arg::U8: {
            const int n = op.arg == Arg::U1 ? 1 : op.arg == Arg::U2 ? 2 : op.arg == Arg::U4 ? 4 : 8;
            if (size - at < static_cast<std::size_t>(n))
                fail(opAt, "opcode " + hex(code) + " is cut off");
            index = littleEndian(data + at, n);
            at += static_cast<std::size_t>(n);
            break;
        }
        case Arg::Len1:
        case Arg::Len4:
        case Arg::Len8: {
            const int n = op.arg == Arg::Len1 ? 1 : op.arg == Arg::Len4 ? 4 : 8;
            if (size - at < static_cast<std::size_t>(n))
                fail(opAt, "opcode " + hex(code) + " is cut off");
            const std::uint64_t length = littleEndian(data + at, n);
            at += static_cast<std::size_t>(n);
            if (length > size - at)
                fail(opAt, "opcode " + hex(code) + " declares " + std::to_string(length) + " bytes where " +
                               std::to_string(size - at) + " are left");
            at += static_cast<std::size_t>(length);
            break;
        }
        }
        switch (op.memo) {
        case Memo::No:
            break;
        case Memo::PutNext:
            ++memoSize;
            break;
        case Memo::PutU1:
        case Memo::PutU4:
        case Memo::PutLine:
            if (index > memoSize)
                fail(opAt, "memo index " + std::to_string(index) + " after " + std::to_string(memoSize) + " entries");
            memoSize = std::max(memoSize, index + 1);
            break;
        case Memo::GetU1:
        case Memo::GetU4:
        case Memo::GetLine:
            if (index >= memoSize)
                fail(opAt, "memo index " + std::to_string(index) + " read, but only " + std::to_string(memoSize) + " were put");
            break;
        }
        if (code == '.')
            return; // STOP: what follows is not read
    }
    fail(size, "no STOP opcode before the end");
}

void checkTorchSave(std::string_view bytes, const std::string &name)
{
    const std::vector<std::string> entries = checkZip(bytes, name);
    // torch's reader takes the archive's folder from its first entry: "<archive>/data.pkl".
    const std::string first = entries.empty() ? std::string() : entries.front();
    const auto slash = first.find('/');
    if (slash == std::string::npos)
        throw BundleError("zip " + name + " is not a torch.save archive: its entries are not in one folder");
    const std::string pickle = first.substr(0, slash) + "/data.pkl";
    checkPickle(readZipEntry(bytes, pickle, kMaxPickleBytes, name), name + ":" + pickle.substr(slash + 1));
}

} // namespace AotStudio::Bundle
