// SPDX-License-Identifier: GPL-3.0-or-later
// The lite runtime's aoti_torch_* shim (core/runtime/lite) against LibTorch's own on the same
// inputs. LibTorch's libtorch_cpu is dlopen()ed RTLD_LOCAL and its functions looked up by name,
// so the two definitions of each symbol live side by side: ours linked in (not exported by this
// executable, so LibTorch's internal calls still bind to its own), LibTorch's through dlsym.
#include "runtime/lite/shim.h"

#include <QTest>

#include <dlfcn.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace {

struct Torch {
    void *lib = nullptr;
    template<typename Fn>
    Fn fn(const char *name) const
    {
        return reinterpret_cast<Fn>(::dlsym(lib, name));
    }
};

using Constant = int32_t (*)();
using EmptyStrided
    = AOTITorchError (*)(int64_t, const int64_t *, const int64_t *, int32_t, int32_t, int32_t, AtenTensorHandle *);
using Reinterpret
    = AOTITorchError (*)(AtenTensorHandle, int64_t, const int64_t *, const int64_t *, int64_t, AtenTensorHandle *);
using FromBlob = AOTITorchError (*)(void *, int64_t, const int64_t *, const int64_t *, int64_t, int32_t, int32_t,
                                    int32_t, AtenTensorHandle *);
using GetPtr = AOTITorchError (*)(AtenTensorHandle, void **);
using GetI64 = AOTITorchError (*)(AtenTensorHandle, int64_t *);
using GetI64s = AOTITorchError (*)(AtenTensorHandle, int64_t **);
using GetI32 = AOTITorchError (*)(AtenTensorHandle, int32_t *);
using Delete = AOTITorchError (*)(AtenTensorHandle);
using Clone = AOTITorchError (*)(AtenTensorHandle, AtenTensorHandle *);
using Addmm
    = AOTITorchError (*)(AtenTensorHandle, AtenTensorHandle, AtenTensorHandle, AtenTensorHandle, double, double);
using Mm = AOTITorchError (*)(AtenTensorHandle, AtenTensorHandle, AtenTensorHandle);

/// One implementation of the ABI: ours (the linked functions) or LibTorch's (looked up).
struct Abi {
    EmptyStrided emptyStrided;
    Reinterpret reinterpret;
    FromBlob fromBlob;
    GetPtr dataPtr;
    GetI64 storageSize, storageOffset, dim, numel;
    GetI64s sizes, strides;
    GetI32 dtype, deviceType;
    Delete del;
    Clone clone;
    Addmm addmm;
    Mm mm, bmm;
};

Abi ours()
{
    return {aoti_torch_empty_strided,
            aoti_torch__reinterpret_tensor,
            aoti_torch_create_tensor_from_blob,
            aoti_torch_get_data_ptr,
            aoti_torch_get_storage_size,
            aoti_torch_get_storage_offset,
            aoti_torch_get_dim,
            aoti_torch_get_numel,
            aoti_torch_get_sizes,
            aoti_torch_get_strides,
            aoti_torch_get_dtype,
            aoti_torch_get_device_type,
            aoti_torch_delete_tensor_object,
            aoti_torch_clone,
            aoti_torch_cpu_addmm_out,
            aoti_torch_cpu_mm_out,
            aoti_torch_cpu_bmm_out};
}

Abi theirs(const Torch &t)
{
    return {t.fn<EmptyStrided>("aoti_torch_empty_strided"),
            t.fn<Reinterpret>("aoti_torch__reinterpret_tensor"),
            t.fn<FromBlob>("aoti_torch_create_tensor_from_blob"),
            t.fn<GetPtr>("aoti_torch_get_data_ptr"),
            t.fn<GetI64>("aoti_torch_get_storage_size"),
            t.fn<GetI64>("aoti_torch_get_storage_offset"),
            t.fn<GetI64>("aoti_torch_get_dim"),
            t.fn<GetI64>("aoti_torch_get_numel"),
            t.fn<GetI64s>("aoti_torch_get_sizes"),
            t.fn<GetI64s>("aoti_torch_get_strides"),
            t.fn<GetI32>("aoti_torch_get_dtype"),
            t.fn<GetI32>("aoti_torch_get_device_type"),
            t.fn<Delete>("aoti_torch_delete_tensor_object"),
            t.fn<Clone>("aoti_torch_clone"),
            t.fn<Addmm>("aoti_torch_cpu_addmm_out"),
            t.fn<Mm>("aoti_torch_cpu_mm_out"),
            t.fn<Mm>("aoti_torch_cpu_bmm_out")};
}

/// What a handle looks like through the ABI's queries.
struct Seen {
    std::vector<int64_t> sizes, strides;
    int64_t offset = 0, storage = 0, numel = 0, dataOffsetBytes = 0;
    int32_t dtype = 0, device = 0;
    bool operator==(const Seen &) const = default;
};

Seen look(const Abi &a, AtenTensorHandle h, const void *base = nullptr)
{
    Seen s;
    int64_t dim = 0, *sz = nullptr, *st = nullptr;
    void *p = nullptr;
    a.dim(h, &dim);
    a.sizes(h, &sz);
    a.strides(h, &st);
    s.sizes.assign(sz, sz + dim);
    s.strides.assign(st, st + dim);
    a.storageOffset(h, &s.offset);
    a.storageSize(h, &s.storage);
    a.numel(h, &s.numel);
    a.dtype(h, &s.dtype);
    a.deviceType(h, &s.device);
    a.dataPtr(h, &p);
    s.dataOffsetBytes = base ? static_cast<const char *>(p) - static_cast<const char *>(base) : 0;
    return s;
}

AtenTensorHandle blob(const Abi &a, std::vector<float> &data, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                      int64_t offset = 0)
{
    AtenTensorHandle h = nullptr;
    a.fromBlob(data.data(), static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), offset, 6, 0, 0, &h);
    return h;
}

std::vector<float> values(const Abi &a, AtenTensorHandle h, std::size_t n)
{
    void *p = nullptr;
    a.dataPtr(h, &p);
    return std::vector<float>(static_cast<float *>(p), static_cast<float *>(p) + n);
}

std::vector<float> sequence(std::size_t n, float scale)
{
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = std::sin(static_cast<float>(i) * scale) + 0.1f * static_cast<float>(i % 7);
    return v;
}

} // namespace

class TestLiteShim : public QObject
{
    Q_OBJECT

private:
    Torch m_torch;
    Abi m_ours, m_theirs;

private Q_SLOTS:
    void initTestCase()
    {
        m_torch.lib = ::dlopen(AOTSTUDIO_LIBTORCH_CPU, RTLD_NOW | RTLD_LOCAL);
        if (!m_torch.lib)
            QSKIP(qPrintable(QStringLiteral("LibTorch cannot be opened here: %1").arg(QString::fromUtf8(::dlerror()))));
        m_ours = ours();
        m_theirs = theirs(m_torch);
        QVERIFY(m_theirs.addmm && m_theirs.emptyStrided && m_theirs.reinterpret);
    }

    void constants()
    {
        // Every constant function of the shim returns LibTorch's value.
        const struct {
            const char *name;
            Constant mine;
        } table[] = {{"aoti_torch_device_type_cpu", aoti_torch_device_type_cpu},
                     {"aoti_torch_device_type_cuda", aoti_torch_device_type_cuda},
                     {"aoti_torch_device_type_meta", aoti_torch_device_type_meta},
                     {"aoti_torch_device_type_xpu", aoti_torch_device_type_xpu},
                     {"aoti_torch_device_type_mps", aoti_torch_device_type_mps},
                     {"aoti_torch_device_type_privateuse1", aoti_torch_device_type_privateuse1},
                     {"aoti_torch_dtype_float8_e5m2", aoti_torch_dtype_float8_e5m2},
                     {"aoti_torch_dtype_float8_e4m3fn", aoti_torch_dtype_float8_e4m3fn},
                     {"aoti_torch_dtype_float8_e5m2fnuz", aoti_torch_dtype_float8_e5m2fnuz},
                     {"aoti_torch_dtype_float8_e4m3fnuz", aoti_torch_dtype_float8_e4m3fnuz},
                     {"aoti_torch_dtype_bfloat16", aoti_torch_dtype_bfloat16},
                     {"aoti_torch_dtype_float16", aoti_torch_dtype_float16},
                     {"aoti_torch_dtype_float32", aoti_torch_dtype_float32},
                     {"aoti_torch_dtype_float64", aoti_torch_dtype_float64},
                     {"aoti_torch_dtype_uint8", aoti_torch_dtype_uint8},
                     {"aoti_torch_dtype_uint16", aoti_torch_dtype_uint16},
                     {"aoti_torch_dtype_uint32", aoti_torch_dtype_uint32},
                     {"aoti_torch_dtype_uint64", aoti_torch_dtype_uint64},
                     {"aoti_torch_dtype_int8", aoti_torch_dtype_int8},
                     {"aoti_torch_dtype_int16", aoti_torch_dtype_int16},
                     {"aoti_torch_dtype_int32", aoti_torch_dtype_int32},
                     {"aoti_torch_dtype_int64", aoti_torch_dtype_int64},
                     {"aoti_torch_dtype_bool", aoti_torch_dtype_bool},
                     {"aoti_torch_dtype_complex32", aoti_torch_dtype_complex32},
                     {"aoti_torch_dtype_complex64", aoti_torch_dtype_complex64},
                     {"aoti_torch_dtype_complex128", aoti_torch_dtype_complex128},
                     {"aoti_torch_layout_strided", aoti_torch_layout_strided},
                     {"aoti_torch_memory_format_contiguous_format", aoti_torch_memory_format_contiguous_format},
                     {"aoti_torch_memory_format_channels_last", aoti_torch_memory_format_channels_last},
                     {"aoti_torch_memory_format_channels_last_3d", aoti_torch_memory_format_channels_last_3d},
                     {"aoti_torch_memory_format_preserve_format", aoti_torch_memory_format_preserve_format}};
        for (const auto &c : table) {
            const auto theirs = m_torch.fn<Constant>(c.name);
            QVERIFY2(theirs, c.name);
            QCOMPARE(c.mine(), theirs());
            if (std::strstr(c.name, "_dtype_"))
                QCOMPARE(AotStudio::Lite::elementSize(c.mine()),
                         m_torch.fn<size_t (*)(int32_t)>("aoti_torch_dtype_element_size")(c.mine()));
        }
        // Every function the shim says it provides is one LibTorch defines under that name.
        for (const auto &name : AotStudio::Lite::providedFunctions())
            QVERIFY2(::dlsym(m_torch.lib, name.c_str()), name.c_str());
    }

    void allocationAndViews()
    {
        const int64_t sizes[] = {3, 5}, strides[] = {1, 4}; // a transposed layout with a gap
        AtenTensorHandle a = nullptr, b = nullptr;
        QCOMPARE(m_ours.emptyStrided(2, sizes, strides, 6, 0, 0, &a), 0);
        QCOMPARE(m_theirs.emptyStrided(2, sizes, strides, 6, 0, 0, &b), 0);
        Seen sa = look(m_ours, a), sb = look(m_theirs, b);
        QCOMPARE(sa.storage, sb.storage);
        QCOMPARE(sa, sb);
        void *pa = nullptr;
        m_ours.dataPtr(a, &pa);
        QCOMPARE(reinterpret_cast<std::uintptr_t>(pa) % 64, std::uintptr_t(0)); // LibTorch's CPU alignment

        // _reinterpret_tensor: its offset adds to the base's; data pointer and queries as LibTorch's.
        std::vector<float> data(64);
        AtenTensorHandle ba = blob(m_ours, data, {4, 4}, {4, 1}, 3), bb = blob(m_theirs, data, {4, 4}, {4, 1}, 3);
        QCOMPARE(look(m_ours, ba, data.data()), look(m_theirs, bb, data.data()));
        const int64_t vs[] = {2, 3}, vt[] = {1, 2};
        AtenTensorHandle va = nullptr, vb = nullptr;
        QCOMPARE(m_ours.reinterpret(ba, 2, vs, vt, 5, &va), 0);
        QCOMPARE(m_theirs.reinterpret(bb, 2, vs, vt, 5, &vb), 0);
        QCOMPARE(look(m_ours, va, data.data()), look(m_theirs, vb, data.data()));

        // clone keeps a dense permuted layout (preserve_format) and copies the values.
        for (std::size_t i = 0; i < data.size(); ++i)
            data[i] = static_cast<float>(i);
        AtenTensorHandle ca = nullptr, cb = nullptr;
        QCOMPARE(m_ours.clone(va, &ca), 0);
        QCOMPARE(m_theirs.clone(vb, &cb), 0);
        QCOMPARE(look(m_ours, ca).strides, look(m_theirs, cb).strides);
        QCOMPARE(values(m_ours, ca, 6), values(m_theirs, cb, 6));
        for (auto h : {a, ba, va, ca})
            QCOMPARE(m_ours.del(h), 0);
        for (auto h : {b, bb, vb, cb})
            QCOMPARE(m_theirs.del(h), 0);
    }

    void gemm_data()
    {
        QTest::addColumn<bool>("transposedWeight");
        QTest::addColumn<bool>("rowBias");
        QTest::addColumn<double>("beta");
        QTest::addColumn<double>("alpha");
        QTest::newRow("linear") << true << true << 1.0 << 1.0;
        QTest::newRow("plain, scaled") << false << true << 0.5 << 2.0;
        QTest::newRow("full bias") << false << false << 1.0 << 1.0;
        QTest::newRow("beta 0") << true << true << 0.0 << 1.0;
    }

    void gemm()
    {
        QFETCH(bool, transposedWeight);
        QFETCH(bool, rowBias);
        QFETCH(double, beta);
        QFETCH(double, alpha);
        const int64_t m = 5, k = 7, n = 3;
        std::vector<float> x = sequence(m * k, 0.3f), w = sequence(k * n, 0.7f), bias = sequence(m * n, 1.1f);
        std::vector<std::vector<float>> results;
        for (const Abi *abi : {&m_ours, &m_theirs}) {
            AtenTensorHandle hx = blob(*abi, x, {m, k}, {k, 1});
            // A Linear's weight is [n, k] used transposed: strides (1, k) over [k, n].
            AtenTensorHandle hw = transposedWeight ? blob(*abi, w, {k, n}, {1, k}) : blob(*abi, w, {k, n}, {n, 1});
            AtenTensorHandle hb = rowBias ? blob(*abi, bias, {n}, {1}) : blob(*abi, bias, {m, n}, {n, 1});
            const int64_t os[] = {m, n}, ot[] = {n, 1};
            AtenTensorHandle out = nullptr;
            QCOMPARE(abi->emptyStrided(2, os, ot, 6, 0, 0, &out), 0);
            QCOMPARE(abi->addmm(out, hb, hx, hw, beta, alpha), 0);
            results.push_back(values(*abi, out, static_cast<std::size_t>(m * n)));
            AtenTensorHandle out2 = nullptr;
            QCOMPARE(abi->emptyStrided(2, os, ot, 6, 0, 0, &out2), 0);
            QCOMPARE(abi->mm(out2, hx, hw), 0);
            results.push_back(values(*abi, out2, static_cast<std::size_t>(m * n)));
            for (auto h : {hx, hw, hb, out, out2})
                abi->del(h);
        }
        for (std::size_t i = 0; i < results[0].size(); ++i) {
            QVERIFY2(std::abs(results[0][i] - results[2][i]) < 1e-5f, "addmm differs from LibTorch's");
            QVERIFY2(std::abs(results[1][i] - results[3][i]) < 1e-5f, "mm differs from LibTorch's");
        }
    }

    void bmm()
    {
        const int64_t b = 2, m = 3, k = 4, n = 2;
        std::vector<float> x = sequence(b * m * k, 0.2f), y = sequence(b * k * n, 0.5f);
        std::vector<std::vector<float>> results;
        for (const Abi *abi : {&m_ours, &m_theirs}) {
            AtenTensorHandle hx = blob(*abi, x, {b, m, k}, {m * k, k, 1});
            AtenTensorHandle hy = blob(*abi, y, {b, k, n}, {k * n, 1, k}); // each matrix column-major
            const int64_t os[] = {b, m, n}, ot[] = {m * n, n, 1};
            AtenTensorHandle out = nullptr;
            QCOMPARE(abi->emptyStrided(3, os, ot, 6, 0, 0, &out), 0);
            QCOMPARE(abi->bmm(out, hx, hy), 0);
            results.push_back(values(*abi, out, static_cast<std::size_t>(b * m * n)));
            for (auto h : {hx, hy, out})
                abi->del(h);
        }
        for (std::size_t i = 0; i < results[0].size(); ++i)
            QVERIFY2(std::abs(results[0][i] - results[1][i]) < 1e-5f, "bmm differs from LibTorch's");
    }

    void badInputFailsWithAReason()
    {
        // A dtype OpenBLAS has no GEMM for, and a null handle: failure codes with the reason kept.
        std::vector<float> d(16);
        AtenTensorHandle h = nullptr;
        const int64_t s[] = {2, 2}, t[] = {2, 1};
        QCOMPARE(aoti_torch_create_tensor_from_blob(d.data(), 2, s, t, 0, 15, 0, 0, &h), 0);
        QCOMPARE(aoti_torch_cpu_mm_out(h, h, h), 1);
        QVERIFY2(AotStudio::Lite::lastError().find("bfloat16") != std::string::npos,
                 AotStudio::Lite::lastError().c_str());
        QCOMPARE(aoti_torch_cpu_mm_out(nullptr, h, h), 1);
        int64_t dim = 0;
        QCOMPARE(aoti_torch_get_dim(nullptr, &dim), 1);
        QCOMPARE(aoti_torch_empty_strided(2, s, t, 6, 1, 0, &h), 1); // CUDA: refused
        QVERIFY(AotStudio::Lite::lastError().find("CPU-only") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestLiteShim)
#include "tst_liteshim.moc"
