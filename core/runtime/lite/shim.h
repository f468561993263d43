// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The libtorch-free runtime's side of AOTInductor's C ABI (BUNDLE.md "The libtorch-free runtime").
//
// A package compiled with `aot_inductor.link_libtorch=False` leaves its `aoti_torch_*` calls
// undefined and binds them when it is loaded, from whatever the process exports. This library
// defines the subset such CPU packages call, on a tensor handle of our own (Lite::Tensor: data,
// sizes, strides, dtype, device, storage offset, a shared storage), with the extern GEMM ops as glue
// over OpenBLAS (shimops.cpp). No torch header is included anywhere: each function is declared
// here from the upstream header named beside it (torch 2.14.1's include/torch/csrc/inductor/...),
// with the same C signature, so that the package's calls land here. The executable that links this
// library must export these symbols (CMake ENABLE_EXPORTS, i.e. -rdynamic).
//
// Error convention, as upstream's: 0 (AOTI_TORCH_SUCCESS) or 1 (AOTI_TORCH_FAILURE); on failure the
// reason is kept per thread (Lite::lastError()), since the package only says which call failed.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// aoti_torch/c/macros.h
struct AtenTensorOpaque;
using AtenTensorHandle = AtenTensorOpaque *;
struct C10IValueOpaque;
using C10IValueHandle = C10IValueOpaque *;
using AOTITorchError = int32_t;
// aoti_torch/c/shim.h
struct AtenRecordFunctionOpaque;
using AtenRecordFunctionHandle = AtenRecordFunctionOpaque *;
struct IValueMapOpaque;
using IValueMapHandle = IValueMapOpaque *;

#define AOTSTUDIO_LITE_EXPORT extern "C" __attribute__((visibility("default")))

// --- aoti_torch/c/shim.h: constants --------------------------------------------------------------
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_device_type_cpu();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_device_type_cuda();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_device_type_meta();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_device_type_xpu();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_device_type_mps();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_device_type_privateuse1();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_float8_e5m2();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_float8_e4m3fn();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_float8_e5m2fnuz();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_float8_e4m3fnuz();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_bfloat16();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_float16();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_float32();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_float64();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_uint8();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_uint16();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_uint32();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_uint64();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_int8();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_int16();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_int32();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_int64();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_bool();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_complex32();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_complex64();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_dtype_complex128();
AOTSTUDIO_LITE_EXPORT size_t aoti_torch_dtype_element_size(int32_t dtype);
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_layout_strided();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_memory_format_contiguous_format();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_memory_format_channels_last();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_memory_format_channels_last_3d();
AOTSTUDIO_LITE_EXPORT int32_t aoti_torch_memory_format_preserve_format();

// --- aoti_torch/c/shim.h: grad mode, queries ----------------------------------------------------
AOTSTUDIO_LITE_EXPORT bool aoti_torch_grad_mode_is_enabled();
AOTSTUDIO_LITE_EXPORT void aoti_torch_grad_mode_set_enabled(bool enabled);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_delete_tensor_object(AtenTensorHandle tensor);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_data_ptr(AtenTensorHandle tensor, void **ret_data_ptr);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_storage_size(AtenTensorHandle tensor, int64_t *ret_size);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_storage_numel(AtenTensorHandle tensor, int64_t *ret_numel);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_dim(AtenTensorHandle tensor, int64_t *ret_dim);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_numel(AtenTensorHandle tensor, int64_t *ret_numel);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_sizes(AtenTensorHandle tensor, int64_t **ret_sizes);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_size(AtenTensorHandle tensor, int64_t d, int64_t *ret_size);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_strides(AtenTensorHandle tensor, int64_t **ret_strides);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_stride(AtenTensorHandle tensor, int64_t d, int64_t *ret_stride);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_dtype(AtenTensorHandle tensor, int32_t *ret_dtype);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_device_type(AtenTensorHandle tensor, int32_t *ret_device_type);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_device_index(AtenTensorHandle tensor, int32_t *ret_device_index);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_layout(AtenTensorHandle tensor, int32_t *ret_layout);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_get_storage_offset(AtenTensorHandle tensor,
                                                                   int64_t *ret_storage_offset);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_is_contiguous(AtenTensorHandle tensor, bool *ret_is_contiguous);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_is_defined(AtenTensorHandle tensor, bool *ret_is_defined);

// --- aoti_torch/c/shim.h: handles, allocation, views ---------------------------------------------
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_new_tensor_handle(AtenTensorHandle orig_handle,
                                                                  AtenTensorHandle *new_handle);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch__alloc_from_pool(AtenTensorHandle self, int64_t offset_bytes,
                                                                 int32_t dtype, int64_t ndim, const int64_t *sizes_ptr,
                                                                 const int64_t *strides_ptr,
                                                                 AtenTensorHandle *ret_new_tensor);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch__reinterpret_tensor(AtenTensorHandle self, int64_t ndim,
                                                                    const int64_t *sizes_ptr,
                                                                    const int64_t *strides_ptr, int64_t storage_offset,
                                                                    AtenTensorHandle *ret_new_tensor);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_empty_strided(int64_t ndim, const int64_t *sizes_ptr,
                                                              const int64_t *strides_ptr, int32_t dtype,
                                                              int32_t device_type, int32_t device_index,
                                                              AtenTensorHandle *ret_new_tensor);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_empty_strided_pinned(int64_t ndim, const int64_t *sizes_ptr,
                                                                     const int64_t *strides_ptr, int32_t dtype,
                                                                     int32_t device_type, int32_t device_index,
                                                                     AtenTensorHandle *ret_new_tensor);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_as_strided(AtenTensorHandle self, const int64_t *sizes_ptr,
                                                           const int64_t *strides_ptr, AtenTensorHandle *ret);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_create_tensor_from_blob(
    void *data, int64_t ndim, const int64_t *sizes_ptr, const int64_t *strides_ptr, int64_t storage_offset,
    int32_t dtype, int32_t device_type, int32_t device_index, AtenTensorHandle *ret);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_create_tensor_from_blob_v2(
    void *data, int64_t ndim, const int64_t *sizes_ptr, const int64_t *strides_ptr, int64_t storage_offset,
    int32_t dtype, int32_t device_type, int32_t device_index, AtenTensorHandle *ret, int32_t layout,
    const uint8_t *opaque_metadata, int64_t opaque_metadata_size);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_new_uninitialized_tensor(AtenTensorHandle *ret);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_assign_tensors(AtenTensorHandle src, AtenTensorHandle dst);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_assign_tensors_out(AtenTensorHandle src, AtenTensorHandle *ret_dst);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_clone(AtenTensorHandle self, AtenTensorHandle *ret);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_clone_preserve_strides(AtenTensorHandle self, AtenTensorHandle *ret);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_copy_(AtenTensorHandle self, AtenTensorHandle src,
                                                      int32_t non_blocking);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_tensor_copy_(AtenTensorHandle src, AtenTensorHandle dst);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_zero_(AtenTensorHandle self);

// --- aoti_torch/c/shim.h: profiler hooks (no-ops here: nothing records) --------------------------
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_record_function_start(const char *name, IValueMapHandle kwargs,
                                                                const C10IValueHandle *inputs, const uint64_t n_inputs,
                                                                AtenRecordFunctionHandle *guard);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_record_function_end(AtenRecordFunctionHandle guard);

// --- aoti_torch/generated/c_shim_cpu.h: extern ops (shimops.cpp, OpenBLAS) ---------------------
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_cpu_addmm_out(AtenTensorHandle out, AtenTensorHandle self,
                                                              AtenTensorHandle mat1, AtenTensorHandle mat2, double beta,
                                                              double alpha);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_cpu_mm_out(AtenTensorHandle out, AtenTensorHandle self,
                                                           AtenTensorHandle mat2);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_cpu_bmm_out(AtenTensorHandle out, AtenTensorHandle self,
                                                            AtenTensorHandle mat2);
AOTSTUDIO_LITE_EXPORT AOTITorchError aoti_torch_cpu_baddbmm_out(AtenTensorHandle out, AtenTensorHandle self,
                                                                AtenTensorHandle batch1, AtenTensorHandle batch2,
                                                                double beta, double alpha);

namespace AotStudio::Lite {

/// Bytes a tensor's elements live in. Owned (aligned allocation, freed with the last view) or
/// borrowed (a blob of the package's .so, a mapped weight file, a caller's buffer: never freed here).
struct Storage {
    void *data = nullptr;
    std::int64_t nbytes = 0;
    bool owned = false; ///< freed with free() (emptyTensor()'s aligned allocation)
    bool mapped = false; ///< unmapped with munmap(data, nbytes) (a mapped weight file)
    ~Storage();
};

/// What an AtenTensorHandle points to in this runtime: one strided view of a storage.
struct Tensor {
    std::shared_ptr<Storage> storage; ///< null: an undefined tensor (aoti_torch_new_uninitialized_tensor)
    std::vector<std::int64_t> sizes;
    std::vector<std::int64_t> strides; ///< in elements
    std::int64_t storageOffset = 0; ///< in elements
    std::int32_t dtype = 6; ///< ScalarType code (aoti_torch_dtype_*), float32 by default
    std::int32_t deviceType = 0; ///< always CPU (0) here
    std::int32_t deviceIndex = 0;

    std::int64_t numel() const;
    std::size_t itemSize() const;
    /// First element's address (storage data + offset); null for an undefined tensor.
    void *data() const;
};

inline Tensor *fromHandle(AtenTensorHandle h)
{
    return reinterpret_cast<Tensor *>(h);
}
inline AtenTensorHandle toHandle(Tensor *t)
{
    return reinterpret_cast<AtenTensorHandle>(t);
}

/// Bytes per element of a ScalarType code; 0 for a code this runtime does not know.
std::size_t elementSize(std::int32_t dtype);
/// The dtype's name as torch prints it without "torch." ("float32"); "dtype <code>" when unknown.
std::string dtypeName(std::int32_t dtype);
/// The ScalarType code of a dtype name ("float32", "torch.int64"); -1 when unknown.
std::int32_t dtypeCode(const std::string &name);

/// A new, owned CPU tensor of `sizes`, contiguous unless `strides` is given (elements), its bytes
/// 64-byte aligned (as LibTorch's CPU allocator) and uninitialised. Throws std::runtime_error when
/// the allocation fails or a size is negative.
std::unique_ptr<Tensor> emptyTensor(const std::vector<std::int64_t> &sizes, std::int32_t dtype,
                                    const std::vector<std::int64_t> &strides = {});

/// The reason the last shim call on this thread failed ("aoti_torch_cpu_mm_out: dtype bfloat16 ...");
/// empty when none has.
std::string lastError();
void clearLastError();
void setLastError(const std::string &message);

/// The names of every function this library defines for packages (the aoti_torch_* ABI subset),
/// in the order of this header.
const std::vector<std::string> &providedFunctions();

/// Intra-op threads for the GEMM glue (OpenBLAS); `n` < 1 leaves OpenBLAS's default.
void setBlasThreads(int n);

/// Strides (elements) that keep `t`'s dimension order when it is dense and non-overlapping, else
/// contiguous ones: LibTorch's at::MemoryFormat::Preserve for clone (aoti_torch_clone).
std::vector<std::int64_t> preservedStrides(const Tensor &t);

/// Copy `src` into `dst` element by element (same sizes and dtype; any strides). Throws
/// std::runtime_error naming what differs.
void copyInto(const Tensor &dst, const Tensor &src);

} // namespace AotStudio::Lite
