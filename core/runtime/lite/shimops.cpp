// SPDX-License-Identifier: GPL-3.0-or-later
// The extern ops of the lite shim (aoti_torch/generated/c_shim_cpu.h): GEMM glue over OpenBLAS's
// CBLAS, no kernels of our own. OpenBLAS (Debian's libopenblas0) is opened with dlopen() on the
// first GEMM, so a package without one never maps it, and a machine without it gets one line that
// names the library instead of a loader error before main().
#include "runtime/lite/shim.h"

#include <cblas.h> // types and enums only: the functions are looked up in the library opened below

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace AotStudio::Lite {

namespace {

constexpr const char *kBlasLibrary = "libopenblas.so.0";

using SgemmFn = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint, blasint, blasint, float, const float *,
                         blasint, const float *, blasint, float, float *, blasint);
using DgemmFn = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, blasint, blasint, blasint, double,
                         const double *, blasint, const double *, blasint, double, double *, blasint);
using SetThreadsFn = void (*)(int);

struct Blas {
    SgemmFn sgemm = nullptr;
    DgemmFn dgemm = nullptr;
    SetThreadsFn setThreads = nullptr;
    std::string error;
};

int g_blasThreads = 0;

const Blas &blas()
{
    static const Blas b = [] {
        Blas r;
        void *lib = ::dlopen(kBlasLibrary, RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            const char *why = ::dlerror();
            r.error = std::string("needs ") + kBlasLibrary
                + " (OpenBLAS; Debian: apt-get install libopenblas0) for its "
                + "matrix products, which cannot be opened: " + (why ? why : "unknown error");
            return r;
        }
        r.sgemm = reinterpret_cast<SgemmFn>(::dlsym(lib, "cblas_sgemm"));
        r.dgemm = reinterpret_cast<DgemmFn>(::dlsym(lib, "cblas_dgemm"));
        r.setThreads = reinterpret_cast<SetThreadsFn>(::dlsym(lib, "openblas_set_num_threads"));
        if (!r.sgemm || !r.dgemm)
            r.error = std::string(kBlasLibrary) + " has no cblas_sgemm/cblas_dgemm";
        else if (r.setThreads && g_blasThreads > 0)
            r.setThreads(g_blasThreads);
        return r;
    }();
    if (!b.error.empty())
        throw std::runtime_error(b.error);
    return b;
}

/// How BLAS reads a [rows, cols] matrix: its transpose flag and leading dimension, when its
/// strides are row- or column-major (a size-1 dimension's stride is free); nullopt otherwise.
struct MatrixLayout {
    CBLAS_TRANSPOSE trans;
    blasint ld;
};
bool layoutOf(std::int64_t rows, std::int64_t cols, std::int64_t rowStride, std::int64_t colStride, MatrixLayout &out)
{
    if (cols == 1)
        colStride = 1;
    if (rows == 1)
        rowStride = std::max<std::int64_t>(cols, 1);
    if (colStride == 1 && rowStride >= std::max<std::int64_t>(cols, 1)) {
        out = {CblasNoTrans, static_cast<blasint>(rowStride)};
        return true;
    }
    if (rowStride == 1 && colStride >= std::max<std::int64_t>(rows, 1)) {
        out = {CblasTrans, static_cast<blasint>(colStride)};
        return true;
    }
    return false;
}

/// One 2-D matrix of a (possibly batched) operand: its first element and strides.
struct Mat {
    char *data;
    std::int64_t rows, cols, rowStride, colStride;
};

void checkFloat(const char *op, const Tensor &t)
{
    if (t.dtype != 6 && t.dtype != 7)
        throw std::runtime_error(std::string(op) + ": dtype " + dtypeName(t.dtype)
                                 + " is not supported by the lite runtime (OpenBLAS: float32, float64)");
}

/// c = alpha * a @ b + beta * c, for one matrix each; copies an operand BLAS cannot read in place.
void gemm(std::int32_t dtype, const Mat &a, const Mat &b, const Mat &c, double alpha, double beta)
{
    const std::int64_t m = a.rows, k = a.cols, n = b.cols;
    if (m == 0 || n == 0)
        return;
    const std::size_t item = dtype == 6 ? 4 : 8;
    // An operand BLAS cannot read in place is copied contiguous first.
    std::vector<char> aCopy, bCopy, cCopy;
    auto contiguous = [&](const Mat &x, std::vector<char> &buf) {
        buf.resize(static_cast<std::size_t>(x.rows * x.cols) * item);
        for (std::int64_t r = 0; r < x.rows; ++r)
            for (std::int64_t col = 0; col < x.cols; ++col)
                std::memcpy(buf.data() + static_cast<std::size_t>(r * x.cols + col) * item,
                            x.data + (r * x.rowStride + col * x.colStride) * static_cast<std::int64_t>(item), item);
        return Mat{buf.data(), x.rows, x.cols, x.cols, 1};
    };
    Mat A = a, B = b, C = c;
    MatrixLayout la{}, lb{}, lc{};
    if (!layoutOf(A.rows, A.cols, A.rowStride, A.colStride, la)) {
        A = contiguous(a, aCopy);
        layoutOf(A.rows, A.cols, A.rowStride, A.colStride, la);
    }
    if (!layoutOf(B.rows, B.cols, B.rowStride, B.colStride, lb)) {
        B = contiguous(b, bCopy);
        layoutOf(B.rows, B.cols, B.rowStride, B.colStride, lb);
    }
    const bool cInPlace = layoutOf(C.rows, C.cols, C.rowStride, C.colStride, lc) && lc.trans == CblasNoTrans;
    if (!cInPlace) {
        C = contiguous(c, cCopy);
        lc = {CblasNoTrans, static_cast<blasint>(std::max<std::int64_t>(n, 1))};
    }
    const auto &lib = blas();
    if (k == 0) { // BLAS leaves C * beta; make beta == 0 clear NaNs as torch does
        for (std::int64_t r = 0; r < m; ++r)
            for (std::int64_t col = 0; col < n; ++col) {
                char *p = C.data + (r * C.rowStride + col * C.colStride) * static_cast<std::int64_t>(item);
                if (dtype == 6)
                    *reinterpret_cast<float *>(p)
                        = beta == 0 ? 0.0f : static_cast<float>(beta * *reinterpret_cast<float *>(p));
                else
                    *reinterpret_cast<double *>(p) = beta == 0 ? 0.0 : beta * *reinterpret_cast<double *>(p);
            }
    } else if (dtype == 6) {
        lib.sgemm(CblasRowMajor, la.trans, lb.trans, static_cast<blasint>(m), static_cast<blasint>(n),
                  static_cast<blasint>(k), static_cast<float>(alpha), reinterpret_cast<const float *>(A.data), la.ld,
                  reinterpret_cast<const float *>(B.data), lb.ld, static_cast<float>(beta),
                  reinterpret_cast<float *>(C.data), lc.ld);
    } else {
        lib.dgemm(CblasRowMajor, la.trans, lb.trans, static_cast<blasint>(m), static_cast<blasint>(n),
                  static_cast<blasint>(k), alpha, reinterpret_cast<const double *>(A.data), la.ld,
                  reinterpret_cast<const double *>(B.data), lb.ld, beta, reinterpret_cast<double *>(C.data), lc.ld);
    }
    if (!cInPlace)
        for (std::int64_t r = 0; r < m; ++r)
            for (std::int64_t col = 0; col < n; ++col)
                std::memcpy(c.data + (r * c.rowStride + col * c.colStride) * static_cast<std::int64_t>(item),
                            C.data + static_cast<std::size_t>(r * n + col) * item, item);
}

Mat matrix(const Tensor &t, std::int64_t batch = -1)
{
    char *base = static_cast<char *>(t.data());
    if (batch < 0)
        return {base, t.sizes[0], t.sizes[1], t.strides[0], t.strides[1]};
    return {base + batch * t.strides[0] * static_cast<std::int64_t>(t.itemSize()), t.sizes[1], t.sizes[2], t.strides[1],
            t.strides[2]};
}

/// out = beta * self (broadcast to out's shape) for addmm/baddbmm's input: written before the
/// product is accumulated with BLAS's beta = 1.
void fillBroadcast(const char *op, const Tensor &out, const Tensor &self, double beta)
{
    const std::size_t rank = out.sizes.size();
    if (self.sizes.size() > rank)
        throw std::runtime_error(std::string(op) + ": input of rank " + std::to_string(self.sizes.size())
                                 + " does not broadcast to the output's rank " + std::to_string(rank));
    if (self.dtype != out.dtype)
        throw std::runtime_error(std::string(op) + ": input " + dtypeName(self.dtype) + ", output "
                                 + dtypeName(out.dtype));
    Tensor expanded = self; // the input's strides, right-aligned, 0 where it broadcasts
    expanded.sizes = out.sizes;
    expanded.strides.assign(rank, 0);
    const std::size_t shift = rank - self.sizes.size();
    for (std::size_t i = 0; i < self.sizes.size(); ++i) {
        if (self.sizes[i] == out.sizes[i + shift])
            expanded.strides[i + shift] = self.strides[i];
        else if (self.sizes[i] != 1)
            throw std::runtime_error(std::string(op) + ": input size " + std::to_string(self.sizes[i])
                                     + " does not broadcast to " + std::to_string(out.sizes[i + shift]));
    }
    if (out.data() != expanded.data() || out.strides != expanded.strides)
        copyInto(out, expanded);
    if (beta != 1) {
        // Scale in place, element by element along out's own strides.
        Tensor o = out;
        const std::int64_t n = o.numel();
        std::vector<std::int64_t> index(rank, 0);
        for (std::int64_t e = 0; e < n; ++e) {
            std::int64_t off = 0;
            for (std::size_t i = 0; i < rank; ++i)
                off += index[i] * o.strides[i];
            char *p = static_cast<char *>(o.data()) + off * static_cast<std::int64_t>(o.itemSize());
            if (o.dtype == 6)
                *reinterpret_cast<float *>(p) = static_cast<float>(beta * *reinterpret_cast<float *>(p));
            else
                *reinterpret_cast<double *>(p) *= beta;
            for (std::size_t i = rank; i-- > 0;) {
                if (++index[i] < o.sizes[i])
                    break;
                index[i] = 0;
            }
        }
    }
}

void checkMatmul(const char *op, const Tensor &out, const Tensor &a, const Tensor &b, std::size_t rank)
{
    for (const Tensor *t : {&out, &a, &b}) {
        if (t->sizes.size() != rank)
            throw std::runtime_error(std::string(op) + ": expected tensors of rank " + std::to_string(rank) + ", got "
                                     + std::to_string(t->sizes.size()));
        checkFloat(op, *t);
        if (t->dtype != out.dtype)
            throw std::runtime_error(std::string(op) + ": mixed dtypes " + dtypeName(t->dtype) + " and "
                                     + dtypeName(out.dtype));
    }
    const std::size_t r = rank - 2;
    const bool batchOk = rank == 2 || (a.sizes[0] == b.sizes[0] && a.sizes[0] == out.sizes[0]);
    if (!batchOk || a.sizes[r + 1] != b.sizes[r] || out.sizes[r] != a.sizes[r] || out.sizes[r + 1] != b.sizes[r + 1])
        throw std::runtime_error(std::string(op) + ": shapes do not multiply");
}

const Tensor &ref(AtenTensorHandle h)
{
    if (!h)
        throw std::runtime_error("null tensor handle");
    return *fromHandle(h);
}

template<typename Fn>
AOTITorchError guardedOp(const char *function, Fn &&fn)
{
    try {
        fn();
        return 0;
    } catch (const std::exception &e) {
        setLastError(std::string(function) + ": " + e.what());
    }
    return 1;
}

} // namespace

void setBlasThreads(int n)
{
    g_blasThreads = n;
}

} // namespace AotStudio::Lite

using namespace AotStudio::Lite;

AOTITorchError aoti_torch_cpu_mm_out(AtenTensorHandle out, AtenTensorHandle self, AtenTensorHandle mat2)
{
    return guardedOp(__func__, [&] {
        const Tensor &o = ref(out), &a = ref(self), &b = ref(mat2);
        checkMatmul("mm", o, a, b, 2);
        gemm(o.dtype, matrix(a), matrix(b), matrix(o), 1.0, 0.0);
    });
}

AOTITorchError aoti_torch_cpu_addmm_out(AtenTensorHandle out, AtenTensorHandle self, AtenTensorHandle mat1,
                                        AtenTensorHandle mat2, double beta, double alpha)
{
    return guardedOp(__func__, [&] {
        const Tensor &o = ref(out), &in = ref(self), &a = ref(mat1), &b = ref(mat2);
        checkMatmul("addmm", o, a, b, 2);
        if (beta != 0)
            fillBroadcast("addmm", o, in, beta);
        gemm(o.dtype, matrix(a), matrix(b), matrix(o), alpha, beta != 0 ? 1.0 : 0.0);
    });
}

AOTITorchError aoti_torch_cpu_bmm_out(AtenTensorHandle out, AtenTensorHandle self, AtenTensorHandle mat2)
{
    return guardedOp(__func__, [&] {
        const Tensor &o = ref(out), &a = ref(self), &b = ref(mat2);
        checkMatmul("bmm", o, a, b, 3);
        for (std::int64_t i = 0; i < o.sizes[0]; ++i)
            gemm(o.dtype, matrix(a, i), matrix(b, i), matrix(o, i), 1.0, 0.0);
    });
}

AOTITorchError aoti_torch_cpu_baddbmm_out(AtenTensorHandle out, AtenTensorHandle self, AtenTensorHandle batch1,
                                          AtenTensorHandle batch2, double beta, double alpha)
{
    return guardedOp(__func__, [&] {
        const Tensor &o = ref(out), &in = ref(self), &a = ref(batch1), &b = ref(batch2);
        checkMatmul("baddbmm", o, a, b, 3);
        if (beta != 0)
            fillBroadcast("baddbmm", o, in, beta);
        for (std::int64_t i = 0; i < o.sizes[0]; ++i)
            gemm(o.dtype, matrix(a, i), matrix(b, i), matrix(o, i), alpha, beta != 0 ? 1.0 : 0.0);
    });
}
