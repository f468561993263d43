// SPDX-License-Identifier: GPL-3.0-or-later
// The tensor handle, allocation, views and queries of the lite shim (shim.h). The semantics are
// LibTorch 2.14.1's (torch/csrc/inductor/aoti_torch/shim_common.cpp), checked against it by
// tests/core/tst_liteshim.cpp on the same inputs.
#include "runtime/lite/shim.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#include <sys/mman.h>

namespace AotStudio::Lite {

namespace {

thread_local std::string t_lastError;
thread_local bool t_gradMode = false; // inference: packages switch it off around a run and back

constexpr std::size_t kAlignment = 64; // c10::alloc_cpu's gAlignment

/// Runs `fn`, turning an exception into AOTI_TORCH_FAILURE with the reason kept for lastError(),
/// as upstream's AOTI_TORCH_CONVERT_EXCEPTION_TO_ERROR_CODE does.
template<typename Fn>
AOTITorchError guarded(const char *function, Fn &&fn)
{
    try {
        fn();
        return 0;
    } catch (const std::exception &e) {
        t_lastError = std::string(function) + ": " + e.what();
    } catch (...) {
        t_lastError = std::string(function) + ": unknown error";
    }
    return 1;
}

Tensor &checked(AtenTensorHandle h)
{
    if (!h)
        throw std::runtime_error("null tensor handle");
    return *fromHandle(h);
}

void checkOut(const void *p)
{
    if (!p)
        throw std::runtime_error("null result pointer");
}

std::vector<std::int64_t> contiguousStrides(const std::vector<std::int64_t> &sizes)
{
    std::vector<std::int64_t> strides(sizes.size());
    std::int64_t s = 1;
    for (std::size_t i = sizes.size(); i-- > 0;) {
        strides[i] = s;
        s *= std::max<std::int64_t>(sizes[i], 1);
    }
    return strides;
}

/// Bytes a view of `sizes`/`strides` at `offset` needs (at::detail::computeStorageNbytes).
std::int64_t storageBytes(const std::vector<std::int64_t> &sizes, const std::vector<std::int64_t> &strides,
                          std::size_t itemSize, std::int64_t offset)
{
    std::int64_t last = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] < 0)
            throw std::runtime_error("negative size " + std::to_string(sizes[i]));
        if (sizes[i] == 0)
            return 0;
        last += (sizes[i] - 1) * strides[i];
    }
    return (last + 1 + offset) * static_cast<std::int64_t>(itemSize);
}

std::vector<std::int64_t> dims(const int64_t *p, int64_t n)
{
    if (n < 0 || n > 64)
        throw std::runtime_error("rank " + std::to_string(n) + " out of range");
    if (n > 0 && !p)
        throw std::runtime_error("null sizes or strides");
    return std::vector<std::int64_t>(p, p + n);
}

std::unique_ptr<Tensor> viewOf(const Tensor &self, std::vector<std::int64_t> sizes, std::vector<std::int64_t> strides,
                               std::int64_t offset)
{
    if (sizes.size() != strides.size())
        throw std::runtime_error("sizes and strides differ in rank");
    auto t = std::make_unique<Tensor>(self);
    t->sizes = std::move(sizes);
    t->strides = std::move(strides);
    t->storageOffset = offset;
    return t;
}

std::unique_ptr<Tensor> fromBlob(void *data, int64_t ndim, const int64_t *sizes, const int64_t *strides, int64_t offset,
                                 int32_t dtype, int32_t deviceType, int32_t deviceIndex)
{
    if (deviceType != 0)
        throw std::runtime_error("device type " + std::to_string(deviceType) + ": the lite runtime is CPU-only");
    if (elementSize(dtype) == 0)
        throw std::runtime_error("unknown dtype code " + std::to_string(dtype));
    auto t = std::make_unique<Tensor>();
    t->sizes = dims(sizes, ndim);
    t->strides = dims(strides, ndim);
    t->storageOffset = offset;
    t->dtype = dtype;
    t->deviceIndex = deviceIndex;
    t->storage = std::make_shared<Storage>();
    // As at::for_blob: `data` is the storage's start, the offset counts from it.
    t->storage->data = data;
    t->storage->nbytes = storageBytes(t->sizes, t->strides, elementSize(dtype), offset);
    t->storage->owned = false;
    return t;
}

bool isContiguous(const Tensor &t)
{
    std::int64_t expected = 1;
    for (std::size_t i = t.sizes.size(); i-- > 0;) {
        if (t.sizes[i] == 0)
            return true;
        if (t.sizes[i] != 1 && t.strides[i] != expected)
            return false;
        expected *= t.sizes[i];
    }
    return true;
}

} // namespace

Storage::~Storage()
{
    if (owned)
        std::free(data);
    else if (mapped && data)
        ::munmap(data, static_cast<std::size_t>(nbytes));
}

std::int64_t Tensor::numel() const
{
    std::int64_t n = 1;
    for (auto s : sizes)
        n *= s;
    return n;
}

std::size_t Tensor::itemSize() const
{
    return elementSize(dtype);
}

void *Tensor::data() const
{
    if (!storage || !storage->data)
        return nullptr;
    return static_cast<char *>(storage->data) + storageOffset * static_cast<std::int64_t>(itemSize());
}

std::size_t elementSize(std::int32_t dtype)
{
    switch (dtype) {
    case 0: // uint8
    case 1: // int8
    case 11: // bool
    case 23:
    case 24:
    case 25:
    case 26:
    case 44:
    case 45: // float8 kinds, float4_e2m1fn_x2
        return 1;
    case 2: // int16
    case 5: // float16
    case 15: // bfloat16
    case 27: // uint16
        return 2;
    case 3: // int32
    case 6: // float32
    case 8: // complex32
    case 28: // uint32
        return 4;
    case 4: // int64
    case 7: // float64
    case 9: // complex64
    case 29: // uint64
        return 8;
    case 10: // complex128
        return 16;
    default:
        return 0;
    }
}

namespace {
struct DtypeName {
    std::int32_t code;
    const char *name;
};
constexpr DtypeName kDtypes[] = {{0, "uint8"},
                                 {1, "int8"},
                                 {2, "int16"},
                                 {3, "int32"},
                                 {4, "int64"},
                                 {5, "float16"},
                                 {6, "float32"},
                                 {7, "float64"},
                                 {8, "complex32"},
                                 {9, "complex64"},
                                 {10, "complex128"},
                                 {11, "bool"},
                                 {15, "bfloat16"},
                                 {23, "float8_e5m2"},
                                 {24, "float8_e4m3fn"},
                                 {25, "float8_e5m2fnuz"},
                                 {26, "float8_e4m3fnuz"},
                                 {27, "uint16"},
                                 {28, "uint32"},
                                 {29, "uint64"},
                                 {44, "float8_e8m0fnu"},
                                 {45, "float4_e2m1fn_x2"}};
} // namespace

std::string dtypeName(std::int32_t dtype)
{
    for (const auto &d : kDtypes)
        if (d.code == dtype)
            return d.name;
    return "dtype " + std::to_string(dtype);
}

std::int32_t dtypeCode(const std::string &name)
{
    const std::string n = name.rfind("torch.", 0) == 0 ? name.substr(6) : name;
    for (const auto &d : kDtypes)
        if (n == d.name)
            return d.code;
    if (n == "float" || n == "half" || n == "double" || n == "long" || n == "int")
        return n == "float" ? 6 : n == "half" ? 5 : n == "double" ? 7 : n == "long" ? 4 : 3;
    return -1;
}

std::unique_ptr<Tensor> emptyTensor(const std::vector<std::int64_t> &sizes, std::int32_t dtype,
                                    const std::vector<std::int64_t> &strides)
{
    const std::size_t item = elementSize(dtype);
    if (item == 0)
        throw std::runtime_error("unknown dtype code " + std::to_string(dtype));
    auto t = std::make_unique<Tensor>();
    t->sizes = sizes;
    t->strides = strides.empty() ? contiguousStrides(sizes) : strides;
    if (t->strides.size() != sizes.size())
        throw std::runtime_error("sizes and strides differ in rank");
    t->dtype = dtype;
    t->storage = std::make_shared<Storage>();
    const std::int64_t bytes = storageBytes(t->sizes, t->strides, item, 0);
    t->storage->nbytes = bytes;
    t->storage->owned = true;
    // aligned_alloc wants a multiple of the alignment; a zero-byte tensor still gets a valid pointer.
    const std::size_t rounded = (static_cast<std::size_t>(bytes) + kAlignment - 1) / kAlignment * kAlignment;
    t->storage->data = std::aligned_alloc(kAlignment, std::max(rounded, kAlignment));
    if (!t->storage->data)
        throw std::runtime_error("cannot allocate " + std::to_string(bytes) + " bytes");
    return t;
}

std::string lastError()
{
    return t_lastError;
}
void clearLastError()
{
    t_lastError.clear();
}
void setLastError(const std::string &message)
{
    t_lastError = message;
}

std::vector<std::int64_t> preservedStrides(const Tensor &t)
{
    const std::size_t n = t.sizes.size();
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return t.strides[a] > t.strides[b]; });
    std::vector<std::int64_t> strides(n);
    std::int64_t expected = 1;
    for (std::size_t k = n; k-- > 0;) {
        const std::size_t d = order[k];
        if (t.sizes[d] != 1 && t.strides[d] != expected)
            return contiguousStrides(t.sizes);
        strides[d] = expected;
        expected *= std::max<std::int64_t>(t.sizes[d], 1);
    }
    return strides;
}

void copyInto(const Tensor &dst, const Tensor &src)
{
    if (dst.sizes != src.sizes)
        throw std::runtime_error("copy between tensors of different sizes");
    if (dst.dtype != src.dtype)
        throw std::runtime_error("copy from " + dtypeName(src.dtype) + " to " + dtypeName(dst.dtype)
                                 + " (the lite runtime copies within one dtype)");
    const std::size_t item = dst.itemSize();
    const std::int64_t n = dst.numel();
    if (n == 0)
        return;
    char *d = static_cast<char *>(dst.data());
    const char *s = static_cast<const char *>(src.data());
    if (isContiguous(dst) && isContiguous(src)) {
        std::memmove(d, s, static_cast<std::size_t>(n) * item);
        return;
    }
    const std::size_t rank = dst.sizes.size();
    std::vector<std::int64_t> index(rank, 0);
    for (std::int64_t k = 0; k < n; ++k) {
        std::int64_t od = 0, os = 0;
        for (std::size_t i = 0; i < rank; ++i) {
            od += index[i] * dst.strides[i];
            os += index[i] * src.strides[i];
        }
        std::memcpy(d + od * static_cast<std::int64_t>(item), s + os * static_cast<std::int64_t>(item), item);
        for (std::size_t i = rank; i-- > 0;) {
            if (++index[i] < dst.sizes[i])
                break;
            index[i] = 0;
        }
    }
}

const std::vector<std::string> &providedFunctions()
{
    static const std::vector<std::string> names = {"aoti_torch_device_type_cpu",
                                                   "aoti_torch_device_type_cuda",
                                                   "aoti_torch_device_type_meta",
                                                   "aoti_torch_device_type_xpu",
                                                   "aoti_torch_device_type_mps",
                                                   "aoti_torch_device_type_privateuse1",
                                                   "aoti_torch_dtype_float8_e5m2",
                                                   "aoti_torch_dtype_float8_e4m3fn",
                                                   "aoti_torch_dtype_float8_e5m2fnuz",
                                                   "aoti_torch_dtype_float8_e4m3fnuz",
                                                   "aoti_torch_dtype_bfloat16",
                                                   "aoti_torch_dtype_float16",
                                                   "aoti_torch_dtype_float32",
                                                   "aoti_torch_dtype_float64",
                                                   "aoti_torch_dtype_uint8",
                                                   "aoti_torch_dtype_uint16",
                                                   "aoti_torch_dtype_uint32",
                                                   "aoti_torch_dtype_uint64",
                                                   "aoti_torch_dtype_int8",
                                                   "aoti_torch_dtype_int16",
                                                   "aoti_torch_dtype_int32",
                                                   "aoti_torch_dtype_int64",
                                                   "aoti_torch_dtype_bool",
                                                   "aoti_torch_dtype_complex32",
                                                   "aoti_torch_dtype_complex64",
                                                   "aoti_torch_dtype_complex128",
                                                   "aoti_torch_dtype_element_size",
                                                   "aoti_torch_layout_strided",
                                                   "aoti_torch_memory_format_contiguous_format",
                                                   "aoti_torch_memory_format_channels_last",
                                                   "aoti_torch_memory_format_channels_last_3d",
                                                   "aoti_torch_memory_format_preserve_format",
                                                   "aoti_torch_grad_mode_is_enabled",
                                                   "aoti_torch_grad_mode_set_enabled",
                                                   "aoti_torch_delete_tensor_object",
                                                   "aoti_torch_get_data_ptr",
                                                   "aoti_torch_get_storage_size",
                                                   "aoti_torch_get_storage_numel",
                                                   "aoti_torch_get_dim",
                                                   "aoti_torch_get_numel",
                                                   "aoti_torch_get_sizes",
                                                   "aoti_torch_get_size",
                                                   "aoti_torch_get_strides",
                                                   "aoti_torch_get_stride",
                                                   "aoti_torch_get_dtype",
                                                   "aoti_torch_get_device_type",
                                                   "aoti_torch_get_device_index",
                                                   "aoti_torch_get_layout",
                                                   "aoti_torch_get_storage_offset",
                                                   "aoti_torch_is_contiguous",
                                                   "aoti_torch_is_defined",
                                                   "aoti_torch_new_tensor_handle",
                                                   "aoti_torch__alloc_from_pool",
                                                   "aoti_torch__reinterpret_tensor",
                                                   "aoti_torch_empty_strided",
                                                   "aoti_torch_empty_strided_pinned",
                                                   "aoti_torch_as_strided",
                                                   "aoti_torch_create_tensor_from_blob",
                                                   "aoti_torch_create_tensor_from_blob_v2",
                                                   "aoti_torch_new_uninitialized_tensor",
                                                   "aoti_torch_assign_tensors",
                                                   "aoti_torch_assign_tensors_out",
                                                   "aoti_torch_clone",
                                                   "aoti_torch_clone_preserve_strides",
                                                   "aoti_torch_copy_",
                                                   "aoti_torch_tensor_copy_",
                                                   "aoti_torch_zero_",
                                                   "aoti_record_function_start",
                                                   "aoti_record_function_end",
                                                   "aoti_torch_cpu_addmm_out",
                                                   "aoti_torch_cpu_mm_out",
                                                   "aoti_torch_cpu_bmm_out",
                                                   "aoti_torch_cpu_baddbmm_out"};
    return names;
}

} // namespace AotStudio::Lite

using namespace AotStudio::Lite;

// The codes are c10::ScalarType's, c10::DeviceType's, c10::Layout's and c10::MemoryFormat's values
// (what LibTorch 2.14.1's functions return; tst_liteshim compares them).
int32_t aoti_torch_device_type_cpu()
{
    return 0;
}
int32_t aoti_torch_device_type_cuda()
{
    return 1;
}
int32_t aoti_torch_device_type_meta()
{
    return 14;
}
int32_t aoti_torch_device_type_xpu()
{
    return 12;
}
int32_t aoti_torch_device_type_mps()
{
    return 13;
}
int32_t aoti_torch_device_type_privateuse1()
{
    return 20;
}
int32_t aoti_torch_dtype_float8_e5m2()
{
    return 23;
}
int32_t aoti_torch_dtype_float8_e4m3fn()
{
    return 24;
}
int32_t aoti_torch_dtype_float8_e5m2fnuz()
{
    return 25;
}
int32_t aoti_torch_dtype_float8_e4m3fnuz()
{
    return 26;
}
int32_t aoti_torch_dtype_bfloat16()
{
    return 15;
}
int32_t aoti_torch_dtype_float16()
{
    return 5;
}
int32_t aoti_torch_dtype_float32()
{
    return 6;
}
int32_t aoti_torch_dtype_float64()
{
    return 7;
}
int32_t aoti_torch_dtype_uint8()
{
    return 0;
}
int32_t aoti_torch_dtype_uint16()
{
    return 27;
}
int32_t aoti_torch_dtype_uint32()
{
    return 28;
}
int32_t aoti_torch_dtype_uint64()
{
    return 29;
}
int32_t aoti_torch_dtype_int8()
{
    return 1;
}
int32_t aoti_torch_dtype_int16()
{
    return 2;
}
int32_t aoti_torch_dtype_int32()
{
    return 3;
}
int32_t aoti_torch_dtype_int64()
{
    return 4;
}
int32_t aoti_torch_dtype_bool()
{
    return 11;
}
int32_t aoti_torch_dtype_complex32()
{
    return 8;
}
int32_t aoti_torch_dtype_complex64()
{
    return 9;
}
int32_t aoti_torch_dtype_complex128()
{
    return 10;
}
size_t aoti_torch_dtype_element_size(int32_t dtype)
{
    return elementSize(dtype);
}
int32_t aoti_torch_layout_strided()
{
    return 0;
}
int32_t aoti_torch_memory_format_contiguous_format()
{
    return 0;
}
int32_t aoti_torch_memory_format_channels_last()
{
    return 2;
}
int32_t aoti_torch_memory_format_channels_last_3d()
{
    return 3;
}
int32_t aoti_torch_memory_format_preserve_format()
{
    return 1;
}

bool aoti_torch_grad_mode_is_enabled()
{
    return t_gradMode;
}
void aoti_torch_grad_mode_set_enabled(bool enabled)
{
    t_gradMode = enabled;
}

AOTITorchError aoti_torch_delete_tensor_object(AtenTensorHandle tensor)
{
    return guarded(__func__, [&] { delete fromHandle(tensor); });
}

AOTITorchError aoti_torch_get_data_ptr(AtenTensorHandle tensor, void **ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = checked(tensor).data();
    });
}

AOTITorchError aoti_torch_get_storage_size(AtenTensorHandle tensor, int64_t *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        const auto &t = checked(tensor);
        *ret = t.storage ? t.storage->nbytes : 0;
    });
}

AOTITorchError aoti_torch_get_storage_numel(AtenTensorHandle tensor, int64_t *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        const auto &t = checked(tensor);
        *ret = t.storage ? t.storage->nbytes / static_cast<std::int64_t>(t.itemSize()) : 0;
    });
}

AOTITorchError aoti_torch_get_dim(AtenTensorHandle tensor, int64_t *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = static_cast<int64_t>(checked(tensor).sizes.size());
    });
}

AOTITorchError aoti_torch_get_numel(AtenTensorHandle tensor, int64_t *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = checked(tensor).numel();
    });
}

AOTITorchError aoti_torch_get_sizes(AtenTensorHandle tensor, int64_t **ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = checked(tensor).sizes.data();
    });
}

AOTITorchError aoti_torch_get_size(AtenTensorHandle tensor, int64_t d, int64_t *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        const auto &t = checked(tensor);
        const auto n = static_cast<int64_t>(t.sizes.size());
        const int64_t i = d < 0 ? d + n : d; // as at::Tensor::size(d): negative counts from the end
        if (i < 0 || i >= n)
            throw std::runtime_error("dimension " + std::to_string(d) + " out of range for rank " + std::to_string(n));
        *ret = t.sizes[static_cast<std::size_t>(i)];
    });
}

AOTITorchError aoti_torch_get_strides(AtenTensorHandle tensor, int64_t **ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = checked(tensor).strides.data();
    });
}

AOTITorchError aoti_torch_get_stride(AtenTensorHandle tensor, int64_t d, int64_t *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        const auto &t = checked(tensor);
        const auto n = static_cast<int64_t>(t.strides.size());
        const int64_t i = d < 0 ? d + n : d;
        if (i < 0 || i >= n)
            throw std::runtime_error("dimension " + std::to_string(d) + " out of range for rank " + std::to_string(n));
        *ret = t.strides[static_cast<std::size_t>(i)];
    });
}

AOTITorchError aoti_torch_get_dtype(AtenTensorHandle tensor, int32_t *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = checked(tensor).dtype;
    });
}

AOTITorchError aoti_torch_get_device_type(AtenTensorHandle tensor, int32_t *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = checked(tensor).deviceType;
    });
}

AOTITorchError aoti_torch_get_device_index(AtenTensorHandle tensor, int32_t *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        // LibTorch reports -1 for a CPU tensor's index (no index was set).
        *ret = checked(tensor).deviceType == 0 ? -1 : checked(tensor).deviceIndex;
    });
}

AOTITorchError aoti_torch_get_layout(AtenTensorHandle tensor, int32_t *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        checked(tensor);
        *ret = 0; // strided: the only layout here
    });
}

AOTITorchError aoti_torch_get_storage_offset(AtenTensorHandle tensor, int64_t *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = checked(tensor).storageOffset;
    });
}

AOTITorchError aoti_torch_is_contiguous(AtenTensorHandle tensor, bool *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = isContiguous(checked(tensor));
    });
}

AOTITorchError aoti_torch_is_defined(AtenTensorHandle tensor, bool *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = checked(tensor).storage != nullptr;
    });
}

AOTITorchError aoti_torch_new_tensor_handle(AtenTensorHandle orig, AtenTensorHandle *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = toHandle(new Tensor(checked(orig)));
    });
}

AOTITorchError aoti_torch__alloc_from_pool(AtenTensorHandle self, int64_t offset_bytes, int32_t dtype, int64_t ndim,
                                           const int64_t *sizes_ptr, const int64_t *strides_ptr, AtenTensorHandle *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        const auto &pool = checked(self);
        const std::size_t item = elementSize(dtype);
        if (item == 0)
            throw std::runtime_error("unknown dtype code " + std::to_string(dtype));
        // As upstream: a view of the pool's bytes at `offset_bytes`, reinterpreted as `dtype`.
        if (offset_bytes % static_cast<int64_t>(item) != 0)
            throw std::runtime_error("offset " + std::to_string(offset_bytes)
                                     + " is not a multiple of the element size");
        auto t = viewOf(pool, dims(sizes_ptr, ndim), dims(strides_ptr, ndim),
                        (pool.storageOffset * static_cast<int64_t>(pool.itemSize()) + offset_bytes)
                            / static_cast<int64_t>(item));
        t->dtype = dtype;
        *ret = toHandle(t.release());
    });
}

AOTITorchError aoti_torch__reinterpret_tensor(AtenTensorHandle self, int64_t ndim, const int64_t *sizes_ptr,
                                              const int64_t *strides_ptr, int64_t storage_offset, AtenTensorHandle *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        const auto &t = checked(self);
        // torch::inductor::_reinterpret_tensor: the offset is an increment over self's.
        *ret = toHandle(
            viewOf(t, dims(sizes_ptr, ndim), dims(strides_ptr, ndim), t.storageOffset + storage_offset).release());
    });
}

AOTITorchError aoti_torch_empty_strided(int64_t ndim, const int64_t *sizes_ptr, const int64_t *strides_ptr,
                                        int32_t dtype, int32_t device_type, int32_t device_index, AtenTensorHandle *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        if (device_type != 0)
            throw std::runtime_error("device type " + std::to_string(device_type) + ": the lite runtime is CPU-only");
        auto t = emptyTensor(dims(sizes_ptr, ndim), dtype, dims(strides_ptr, ndim));
        t->deviceIndex = device_index;
        *ret = toHandle(t.release());
    });
}

AOTITorchError aoti_torch_empty_strided_pinned(int64_t ndim, const int64_t *sizes_ptr, const int64_t *strides_ptr,
                                               int32_t dtype, int32_t device_type, int32_t device_index,
                                               AtenTensorHandle *ret)
{
    // Pinned memory matters for copies to a GPU; on the CPU it is ordinary memory.
    return aoti_torch_empty_strided(ndim, sizes_ptr, strides_ptr, dtype, device_type, device_index, ret);
}

AOTITorchError aoti_torch_as_strided(AtenTensorHandle self, const int64_t *sizes_ptr, const int64_t *strides_ptr,
                                     AtenTensorHandle *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        const auto &t = checked(self);
        const auto n = static_cast<int64_t>(t.sizes.size()); // upstream reads self's rank of each
        *ret = toHandle(viewOf(t, dims(sizes_ptr, n), dims(strides_ptr, n), t.storageOffset).release());
    });
}

AOTITorchError aoti_torch_create_tensor_from_blob(void *data, int64_t ndim, const int64_t *sizes_ptr,
                                                  const int64_t *strides_ptr, int64_t storage_offset, int32_t dtype,
                                                  int32_t device_type, int32_t device_index, AtenTensorHandle *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = toHandle(
            fromBlob(data, ndim, sizes_ptr, strides_ptr, storage_offset, dtype, device_type, device_index).release());
    });
}

AOTITorchError aoti_torch_create_tensor_from_blob_v2(void *data, int64_t ndim, const int64_t *sizes_ptr,
                                                     const int64_t *strides_ptr, int64_t storage_offset, int32_t dtype,
                                                     int32_t device_type, int32_t device_index, AtenTensorHandle *ret,
                                                     int32_t layout, const uint8_t *, int64_t opaque_metadata_size)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        if (layout != 0 || opaque_metadata_size > 0)
            throw std::runtime_error("layout " + std::to_string(layout)
                                     + " (an opaque oneDNN tensor: a frozen package): the lite runtime has strided "
                                       "tensors only");
        *ret = toHandle(
            fromBlob(data, ndim, sizes_ptr, strides_ptr, storage_offset, dtype, device_type, device_index).release());
    });
}

AOTITorchError aoti_torch_new_uninitialized_tensor(AtenTensorHandle *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = toHandle(new Tensor);
    });
}

AOTITorchError aoti_torch_assign_tensors(AtenTensorHandle src, AtenTensorHandle dst)
{
    return guarded(__func__, [&] { checked(dst) = checked(src); });
}

AOTITorchError aoti_torch_assign_tensors_out(AtenTensorHandle src, AtenTensorHandle *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        *ret = toHandle(new Tensor(checked(src)));
    });
}

AOTITorchError aoti_torch_clone(AtenTensorHandle self, AtenTensorHandle *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        const auto &t = checked(self);
        auto c = emptyTensor(t.sizes, t.dtype, preservedStrides(t)); // at::clone's preserve_format
        copyInto(*c, t);
        *ret = toHandle(c.release());
    });
}

AOTITorchError aoti_torch_clone_preserve_strides(AtenTensorHandle self, AtenTensorHandle *ret)
{
    return guarded(__func__, [&] {
        checkOut(ret);
        const auto &t = checked(self);
        // Upstream: a buffer the size of the view's extent, the same strides, offset 0.
        auto c = emptyTensor(t.sizes, t.dtype, t.strides);
        copyInto(*c, t);
        *ret = toHandle(c.release());
    });
}

AOTITorchError aoti_torch_copy_(AtenTensorHandle self, AtenTensorHandle src, int32_t)
{
    return guarded(__func__, [&] { copyInto(checked(self), checked(src)); });
}

AOTITorchError aoti_torch_tensor_copy_(AtenTensorHandle src, AtenTensorHandle dst)
{
    return guarded(__func__, [&] { copyInto(checked(dst), checked(src)); });
}

AOTITorchError aoti_torch_zero_(AtenTensorHandle self)
{
    return guarded(__func__, [&] {
        const auto &t = checked(self);
        if (isContiguous(t)) {
            if (t.numel() > 0)
                std::memset(t.data(), 0, static_cast<std::size_t>(t.numel()) * t.itemSize());
            return;
        }
        auto zeros = emptyTensor(t.sizes, t.dtype);
        std::memset(zeros->data(), 0, static_cast<std::size_t>(zeros->numel()) * zeros->itemSize());
        copyInto(t, *zeros);
    });
}

AOTITorchError aoti_record_function_start(const char *, IValueMapHandle, const C10IValueHandle *, const uint64_t,
                                          AtenRecordFunctionHandle *guard)
{
    if (guard)
        *guard = nullptr; // nothing records in the lite runtime
    return 0;
}

AOTITorchError aoti_record_function_end(AtenRecordFunctionHandle)
{
    return 0;
}
