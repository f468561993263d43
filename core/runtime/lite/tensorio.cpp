// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/lite/tensorio.h"

#include "bundle/bundle.h"
#include "bundle/torchsave.h"

#include <zip.h>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <variant>

#include <unistd.h>

namespace AotStudio::Lite {

namespace fs = std::filesystem;

namespace {

// torch.<Name>Storage <-> ScalarType code: the typed storage classes torch.save names.
struct StorageClass {
    const char *name;
    std::int32_t dtype;
};
constexpr StorageClass kStorageClasses[]
    = {{"FloatStorage", 6}, {"DoubleStorage", 7}, {"HalfStorage", 5}, {"BFloat16Storage", 15}, {"LongStorage", 4},
       {"IntStorage", 3},   {"ShortStorage", 2},  {"CharStorage", 1}, {"ByteStorage", 0},      {"BoolStorage", 11}};

struct Value;
using List = std::vector<Value>;
struct Global {
    std::string module, name;
};
struct StorageRef {
    std::shared_ptr<Storage> storage;
    std::int32_t dtype = 6;
};
struct Mark {
};
struct None {
};
struct Dict {
    std::vector<std::pair<Value, Value>> items;
};
struct Value {
    std::variant<None, Mark, bool, std::int64_t, double, std::string, List, std::shared_ptr<Dict>, Global, StorageRef,
                 std::shared_ptr<Tensor>>
        v;
};

class Unpickler
{
public:
    Unpickler(std::string_view pickle, std::string zipBytes, std::string prefix, std::string name)
        : m_p(pickle)
        , m_zip(std::move(zipBytes))
        , m_prefix(std::move(prefix))
        , m_name(std::move(name))
    { }

    Value run()
    {
        while (true) {
            const std::size_t at = m_pos;
            const auto op = static_cast<unsigned char>(byte());
            switch (op) {
            case 0x80:
                byte();
                break; // PROTO
            case 0x95:
                take(8);
                break; // FRAME
            case '.':
                return pop(); // STOP
            case '(':
                push({Mark{}});
                break;
            case 'N':
                push({None{}});
                break;
            case 0x88:
                push({true});
                break;
            case 0x89:
                push({false});
                break;
            case '}':
                push({std::make_shared<Dict>()});
                break;
            case ']':
                push({List{}});
                break;
            case ')':
                push({List{}});
                break; // tuples and lists alike
            case 'K':
                push({static_cast<std::int64_t>(static_cast<unsigned char>(byte()))});
                break;
            case 'M':
                push({static_cast<std::int64_t>(le(2))});
                break;
            case 'J':
                push({static_cast<std::int64_t>(static_cast<std::int32_t>(le(4)))});
                break;
            case 0x8a: { // LONG1
                const auto n = static_cast<unsigned char>(byte());
                if (n > 8)
                    fail(at, "integer of " + std::to_string(n) + " bytes");
                std::uint64_t v = n ? le(n) : 0;
                if (n && n < 8 && (v >> (8 * n - 1)) & 1)
                    v |= ~std::uint64_t(0) << (8 * n); // sign-extend
                push({static_cast<std::int64_t>(v)});
                break;
            }
            case 'G': { // BINFLOAT, big-endian
                std::uint64_t bits = 0;
                for (char c : take(8))
                    bits = (bits << 8) | static_cast<unsigned char>(c);
                double d;
                std::memcpy(&d, &bits, 8);
                push({d});
                break;
            }
            case 'X':
                push({std::string(take(le(4)))});
                break;
            case 0x8c:
                push({std::string(take(static_cast<unsigned char>(byte())))});
                break;
            case 0x8d:
                push({std::string(take(le(8)))});
                break;
            case 'c': {
                Global g;
                g.module = line();
                g.name = line();
                push({g});
                break;
            }
            case 0x93: { // STACK_GLOBAL
                Global g;
                g.name = str(pop(), at);
                g.module = str(pop(), at);
                push({g});
                break;
            }
            case 't':
                push({List(popToMark(at))});
                break;
            case 'l':
                push({List(popToMark(at))});
                break;
            case 0x85:
            case 0x86:
            case 0x87: {
                List items(op - 0x84);
                for (std::size_t i = items.size(); i-- > 0;)
                    items[i] = pop();
                push({std::move(items)});
                break;
            }
            case 'a': {
                Value v = pop();
                list(top(), at).push_back(std::move(v));
                break;
            }
            case 'e': {
                auto items = popToMark(at);
                auto &l = list(top(), at);
                for (auto &v : items)
                    l.push_back(std::move(v));
                break;
            }
            case 's': {
                Value v = pop(), k = pop();
                dict(top(), at).items.emplace_back(std::move(k), std::move(v));
                break;
            }
            case 'u': {
                auto items = popToMark(at);
                if (items.size() % 2)
                    fail(at, "SETITEMS with an odd number of items");
                auto &d = dict(top(), at);
                for (std::size_t i = 0; i < items.size(); i += 2)
                    d.items.emplace_back(std::move(items[i]), std::move(items[i + 1]));
                break;
            }
            case 'q':
                m_memo[static_cast<unsigned char>(byte())] = top();
                break;
            case 'r':
                m_memo[le(4)] = top();
                break;
            case 0x94:
                m_memo[m_memo.size()] = top();
                break;
            case 'h':
                push(memo(static_cast<unsigned char>(byte()), at));
                break;
            case 'j':
                push(memo(le(4), at));
                break;
            case 'Q':
                push(persistent(pop(), at));
                break;
            case 'R': {
                Value args = pop();
                Value fn = pop();
                push(reduce(fn, args, at));
                break;
            }
            case 'b': { // BUILD: an OrderedDict's state (empty for backward hooks) is ignored
                pop();
                break;
            }
            default:
                fail(at, "opcode 0x" + hex(op) + " is not one a torch.save of tensors uses");
            }
        }
    }

private:
    [[noreturn]] void fail(std::size_t at, const std::string &what) const
    {
        throw std::runtime_error(m_name + ": data.pkl at byte " + std::to_string(at) + ": " + what);
    }
    static std::string hex(unsigned v)
    {
        static const char *d = "0123456789abcdef";
        return {d[(v >> 4) & 15], d[v & 15]};
    }
    char byte()
    {
        if (m_pos >= m_p.size())
            fail(m_pos, "the pickle ends early");
        return m_p[m_pos++];
    }
    std::string_view take(std::uint64_t n)
    {
        if (n > m_p.size() - m_pos)
            fail(m_pos, "the pickle ends early");
        auto s = m_p.substr(m_pos, n);
        m_pos += n;
        return s;
    }
    std::uint64_t le(int n)
    {
        std::uint64_t v = 0;
        const auto s = take(static_cast<std::uint64_t>(n));
        for (int i = n; i-- > 0;)
            v = (v << 8) | static_cast<unsigned char>(s[static_cast<std::size_t>(i)]);
        return v;
    }
    std::string line()
    {
        const auto end = m_p.find('\n', m_pos);
        if (end == std::string_view::npos)
            fail(m_pos, "GLOBAL without a newline");
        std::string s(m_p.substr(m_pos, end - m_pos));
        m_pos = end + 1;
        return s;
    }
    void push(Value v) { m_stack.push_back(std::move(v)); }
    Value pop()
    {
        if (m_stack.empty())
            fail(m_pos, "stack underflow");
        Value v = std::move(m_stack.back());
        m_stack.pop_back();
        return v;
    }
    Value &top()
    {
        if (m_stack.empty())
            fail(m_pos, "stack underflow");
        return m_stack.back();
    }
    std::vector<Value> popToMark(std::size_t at)
    {
        std::size_t k = m_stack.size();
        while (k > 0 && !std::holds_alternative<Mark>(m_stack[k - 1].v))
            --k;
        if (k == 0)
            fail(at, "no MARK on the stack");
        std::vector<Value> items(std::make_move_iterator(m_stack.begin() + static_cast<std::ptrdiff_t>(k)),
                                 std::make_move_iterator(m_stack.end()));
        m_stack.resize(k - 1);
        return items;
    }
    Value memo(std::uint64_t i, std::size_t at)
    {
        const auto it = m_memo.find(i);
        if (it == m_memo.end())
            fail(at, "memo entry " + std::to_string(i) + " was never stored");
        return it->second;
    }
    List &list(Value &v, std::size_t at)
    {
        if (auto *l = std::get_if<List>(&v.v))
            return *l;
        fail(at, "APPEND to something that is not a list");
    }
    Dict &dict(Value &v, std::size_t at)
    {
        if (auto *d = std::get_if<std::shared_ptr<Dict>>(&v.v))
            return **d;
        fail(at, "SETITEM on something that is not a dict");
    }
    std::string str(const Value &v, std::size_t at)
    {
        if (const auto *s = std::get_if<std::string>(&v.v))
            return *s;
        fail(at, "expected a string");
    }
    std::int64_t integer(const Value &v, std::size_t at)
    {
        if (const auto *i = std::get_if<std::int64_t>(&v.v))
            return *i;
        fail(at, "expected an integer");
    }
    std::vector<std::int64_t> ints(const Value &v, std::size_t at)
    {
        const auto *l = std::get_if<List>(&v.v);
        if (!l)
            fail(at, "expected a tuple of integers");
        std::vector<std::int64_t> out;
        for (const auto &x : *l)
            out.push_back(integer(x, at));
        return out;
    }

    /// ('storage', torch.<Type>Storage, key, location, numel) -> the storage of data/<key>.
    Value persistent(const Value &pid, std::size_t at)
    {
        const auto *t = std::get_if<List>(&pid.v);
        if (!t || t->size() < 5 || str((*t)[0], at) != "storage")
            fail(at, "a persistent id that is not ('storage', type, key, location, numel)");
        const auto *cls = std::get_if<Global>(&(*t)[1].v);
        if (!cls || cls->module != "torch")
            fail(at, "a storage of an unknown type");
        std::int32_t dtype = -1;
        for (const auto &c : kStorageClasses)
            if (cls->name == c.name)
                dtype = c.dtype;
        if (dtype < 0)
            fail(at, "storage type torch." + cls->name + " is not supported by the lite runtime");
        const std::string key = str((*t)[2], at);
        auto &storage = m_storages[key];
        if (!storage) {
            const std::string bytes
                = Bundle::readZipEntry(m_zip, m_prefix + "data/" + key, std::uint64_t(1) << 40, m_name);
            auto owned = emptyTensor({static_cast<std::int64_t>(bytes.size())}, 0); // aligned bytes
            if (!bytes.empty())
                std::memcpy(owned->data(), bytes.data(), bytes.size());
            storage = owned->storage;
            storage->nbytes = static_cast<std::int64_t>(bytes.size());
        }
        return {StorageRef{storage, dtype}};
    }

    Value reduce(const Value &fn, const Value &args, std::size_t at)
    {
        const auto *g = std::get_if<Global>(&fn.v);
        const auto *a = std::get_if<List>(&args.v);
        if (!g || !a)
            fail(at, "REDUCE of something that is not a known function");
        if (g->module == "collections" && g->name == "OrderedDict")
            return {std::make_shared<Dict>()};
        if (g->module == "torch._utils" && g->name == "_rebuild_tensor_v2" && a->size() >= 4) {
            const auto *s = std::get_if<StorageRef>(&(*a)[0].v);
            if (!s)
                fail(at, "_rebuild_tensor_v2 without a storage");
            auto t = std::make_shared<Tensor>();
            t->storage = s->storage;
            t->dtype = s->dtype;
            t->storageOffset = integer((*a)[1], at);
            t->sizes = ints((*a)[2], at);
            t->strides = ints((*a)[3], at);
            if (t->sizes.size() != t->strides.size())
                fail(at, "a tensor whose sizes and strides differ in rank");
            // Every element the view reaches must lie inside the storage's bytes.
            std::int64_t last = t->storageOffset;
            bool empty = false;
            for (std::size_t i = 0; i < t->sizes.size(); ++i) {
                if (t->sizes[i] < 0 || t->strides[i] < 0)
                    fail(at, "a tensor with a negative size or stride");
                empty = empty || t->sizes[i] == 0;
                last += (t->sizes[i] - 1) * t->strides[i];
            }
            if (t->storageOffset < 0
                || (!empty && (last + 1) * static_cast<std::int64_t>(elementSize(t->dtype)) > t->storage->nbytes))
                fail(at, "a tensor reaches past the end of its storage");
            return {t};
        }
        fail(at, "global " + g->module + "." + g->name + " is not one a torch.save of tensors uses");
    }

    std::string_view m_p;
    std::size_t m_pos = 0;
    std::string m_zip, m_prefix, m_name;
    std::vector<Value> m_stack;
    std::map<std::uint64_t, Value> m_memo;
    std::map<std::string, std::shared_ptr<Storage>> m_storages;
};

void collect(const Value &v, TensorFile &out, const std::string &name, const std::string &file, int depth)
{
    if (depth > 2)
        throw std::runtime_error(file
                                 + ": nested containers are not supported (a tensor, a list or tuple of tensors, or "
                                   "a dict of name -> tensor)");
    if (const auto *t = std::get_if<std::shared_ptr<Tensor>>(&v.v)) {
        out.tensors.push_back(*t);
        out.names.push_back(name);
    } else if (const auto *l = std::get_if<List>(&v.v)) {
        for (const auto &x : *l)
            collect(x, out, "", file, depth + 1);
    } else if (const auto *d = std::get_if<std::shared_ptr<Dict>>(&v.v)) {
        for (const auto &[k, x] : (*d)->items) {
            const auto *key = std::get_if<std::string>(&k.v);
            collect(x, out, key ? *key : "", file, depth + 1);
        }
    } else {
        throw std::runtime_error(file
                                 + ": holds something other than tensors (a tensor, a list or tuple of tensors, "
                                   "or a dict of name -> tensor)");
    }
}

std::string pickleInt(std::int64_t v)
{
    std::string s = "\x8a\x08"; // LONG1, 8 bytes little-endian
    for (int i = 0; i < 8; ++i)
        s.push_back(static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff));
    return s;
}

std::string pickleString(const std::string &v)
{
    std::string s = "X";
    const auto n = static_cast<std::uint32_t>(v.size());
    for (int i = 0; i < 4; ++i)
        s.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
    return s + v;
}

} // namespace

TensorFile readTensorFile(const fs::path &path)
{
    const std::string name = path.string();
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("input file '" + name + "' cannot be opened");
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
        Bundle::checkTorchSave(bytes, name);
        const auto entries = Bundle::checkZip(bytes, name);
        std::string pklEntry;
        for (const auto &e : entries)
            if (e.size() >= 8 && e.compare(e.size() - 8, 8, "data.pkl") == 0
                && e.find('/') == e.size() - 9) { // <archive>/data.pkl
                pklEntry = e;
                break;
            }
        if (pklEntry.empty())
            throw std::runtime_error("input file '" + name + "' is not a torch.save archive (no <name>/data.pkl)");
        const std::string prefix = pklEntry.substr(0, pklEntry.size() - 8);
        const std::string pickle = Bundle::readZipEntry(bytes, pklEntry, Bundle::kMaxPickleBytes, name);
        Unpickler u(pickle, bytes, prefix, "input file '" + name + "'");
        TensorFile out;
        collect(u.run(), out, "", "input file '" + name + "'", 0);
        if (out.tensors.empty())
            throw std::runtime_error("input file '" + name + "' holds no tensors");
        return out;
    } catch (const Bundle::BundleError &e) {
        throw std::runtime_error(e.what());
    }
}

void writeTensorFile(const fs::path &path, const std::vector<const Tensor *> &tensors)
{
    const std::string archive = "archive/";
    std::vector<std::string> blobs;
    std::string pkl = "\x80\x02(";
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const Tensor &t = *tensors[i];
        const char *cls = nullptr;
        for (const auto &c : kStorageClasses)
            if (c.dtype == t.dtype)
                cls = c.name;
        if (!cls)
            throw std::runtime_error("'" + path.string() + "': output " + std::to_string(i) + " is "
                                     + dtypeName(t.dtype) + ", which torch.save has no storage class for here");
        auto dense = emptyTensor(t.sizes, t.dtype);
        copyInto(*dense, t);
        blobs.emplace_back(static_cast<const char *>(dense->data()),
                           static_cast<std::size_t>(dense->numel()) * dense->itemSize());
        pkl += "ctorch._utils\n_rebuild_tensor_v2\n(";
        pkl += "(" + pickleString("storage") + "ctorch\n" + cls + "\n" + pickleString(std::to_string(i))
            + pickleString("cpu") + pickleInt(dense->numel()) + "tQ";
        pkl += pickleInt(0) + "(";
        for (auto s : dense->sizes)
            pkl += pickleInt(s);
        pkl += "t(";
        for (auto s : dense->strides)
            pkl += pickleInt(s);
        pkl += "t\x89"
               "ccollections\nOrderedDict\n)RtR";
    }
    pkl += "t.";

    const fs::path partial = path.string() + ".partial-" + std::to_string(::getpid());
    int code = 0;
    zip_t *z = zip_open(partial.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
    if (!z)
        throw std::runtime_error("'" + path.string() + "' cannot be written (libzip error " + std::to_string(code)
                                 + ")");
    std::vector<std::pair<std::string, const std::string *>> files;
    const std::string version = "3\n", byteorder = "little";
    files.emplace_back(archive + "data.pkl", &pkl);
    files.emplace_back(archive + "byteorder", &byteorder);
    for (std::size_t i = 0; i < blobs.size(); ++i)
        files.emplace_back(archive + "data/" + std::to_string(i), &blobs[i]);
    files.emplace_back(archive + "version", &version);
    bool ok = true;
    for (const auto &[entry, content] : files) {
        zip_source_t *src = zip_source_buffer(z, content->data(), content->size(), 0);
        const zip_int64_t index = src ? zip_file_add(z, entry.c_str(), src, ZIP_FL_ENC_UTF_8) : -1;
        if (index < 0) {
            if (src)
                zip_source_free(src);
            ok = false;
            break;
        }
        zip_set_file_compression(z, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0);
    }
    if (!ok || zip_close(z) != 0) {
        const std::string why = zip_strerror(z);
        zip_discard(z);
        std::error_code ec;
        fs::remove(partial, ec);
        throw std::runtime_error("'" + path.string() + "' cannot be written: " + why);
    }
    std::error_code ec;
    fs::rename(partial, path, ec);
    if (ec) {
        fs::remove(partial, ec);
        throw std::runtime_error("'" + path.string() + "' cannot be written: " + ec.message());
    }
}

} // namespace AotStudio::Lite
