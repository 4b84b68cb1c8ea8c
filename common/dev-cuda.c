/*
 * dev-cuda.c - the device interface over the CUDA driver API.
 *
 * libcuda.so.1 is opened with dlopen when a device is opened, never at link
 * time, so the lab and its drivers run on machines without the NVIDIA driver
 * (they then fail here with a precise reason).  Symbols are looked up by the
 * names cuda.h maps its calls to (cuMemAlloc_v2, ...): the plain names are old
 * ABIs (docs/design/device-interface.md, "Loaded at run time").  Only cuda.h's types are used.
 *
 * Everything is stream-ordered on the legacy default stream: copies in and
 * out are synchronous, copy_dtod / launch / timer marks are asynchronous and
 * sync waits for them.
 */
#include "common/dev.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cuda_api {
    CUresult (*init)(unsigned);
    CUresult (*driver_get_version)(int *);
    CUresult (*device_get_count)(int *);
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*device_get_name)(char *, int, CUdevice);
    CUresult (*device_get_attribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*device_total_mem)(size_t *, CUdevice);
    CUresult (*primary_ctx_retain)(CUcontext *, CUdevice);
    CUresult (*primary_ctx_release)(CUdevice);
    CUresult (*ctx_set_current)(CUcontext);
    CUresult (*ctx_synchronize)(void);
    CUresult (*mem_alloc)(CUdeviceptr *, size_t);
    CUresult (*mem_free)(CUdeviceptr);
    CUresult (*memcpy_htod)(CUdeviceptr, const void *, size_t);
    CUresult (*memcpy_dtoh)(void *, CUdeviceptr, size_t);
    CUresult (*memcpy_dtod_async)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
    CUresult (*module_load_data_ex)(CUmodule *, const void *, unsigned, CUjit_option *, void **);
    CUresult (*module_unload)(CUmodule);
    CUresult (*module_get_function)(CUfunction *, CUmodule, const char *);
    CUresult (*module_get_global)(CUdeviceptr *, size_t *, CUmodule, const char *);
    CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                              unsigned, unsigned, CUstream, void **, void **);
    CUresult (*event_create)(CUevent *, unsigned);
    CUresult (*event_record)(CUevent, CUstream);
    CUresult (*event_elapsed_time)(float *, CUevent, CUevent);
    CUresult (*event_destroy)(CUevent);
    CUresult (*get_error_name)(CUresult, const char **);
    CUresult (*func_get_attribute)(int *, CUfunction_attribute, CUfunction);
    CUresult (*occupancy_max_active_blocks)(int *, CUfunction, int, size_t);
    CUresult (*memset_d32_async)(CUdeviceptr, unsigned, size_t, CUstream);
    CUresult (*get_error_string)(CUresult, const char **);
    CUresult (*device_get_uuid_v2)(CUuuid *, CUdevice);
    CUresult (*device_get_uuid)(CUuuid *, CUdevice);
    CUresult (*device_get_pci_bus_id)(char *, int, CUdevice);
} cuda_api;

/* The symbol each entry is read from; offsets keep the table in step with the struct. */
static const struct {
    const char *symbol;
    size_t offset;
} api_symbols[] = {
#define SYM(field, name)                                                                           \
    {                                                                                              \
        name, offsetof(cuda_api, field)                                                            \
    }
    SYM(init, "cuInit"),
    SYM(driver_get_version, "cuDriverGetVersion"),
    SYM(device_get_count, "cuDeviceGetCount"),
    SYM(device_get, "cuDeviceGet"),
    SYM(device_get_name, "cuDeviceGetName"),
    SYM(device_get_attribute, "cuDeviceGetAttribute"),
    SYM(device_total_mem, "cuDeviceTotalMem_v2"),
    SYM(primary_ctx_retain, "cuDevicePrimaryCtxRetain"),
    SYM(primary_ctx_release, "cuDevicePrimaryCtxRelease_v2"),
    SYM(ctx_set_current, "cuCtxSetCurrent"),
    SYM(ctx_synchronize, "cuCtxSynchronize"),
    SYM(mem_alloc, "cuMemAlloc_v2"),
    SYM(mem_free, "cuMemFree_v2"),
    SYM(memcpy_htod, "cuMemcpyHtoD_v2"),
    SYM(memcpy_dtoh, "cuMemcpyDtoH_v2"),
    SYM(memcpy_dtod_async, "cuMemcpyDtoDAsync_v2"),
    SYM(module_load_data_ex, "cuModuleLoadDataEx"),
    SYM(module_unload, "cuModuleUnload"),
    SYM(module_get_function, "cuModuleGetFunction"),
    SYM(module_get_global, "cuModuleGetGlobal_v2"),
    SYM(launch_kernel, "cuLaunchKernel"),
    SYM(event_create, "cuEventCreate"),
    SYM(event_record, "cuEventRecord"),
    SYM(event_elapsed_time, "cuEventElapsedTime"),
    SYM(event_destroy, "cuEventDestroy_v2"),
    SYM(get_error_name, "cuGetErrorName"),
    SYM(get_error_string, "cuGetErrorString"),
};

/* Looked up too, but a driver without them still opens (NULL when missing). */
static const struct {
    const char *symbol;
    size_t offset;
} optional_symbols[] = {
    SYM(func_get_attribute, "cuFuncGetAttribute"),
    SYM(occupancy_max_active_blocks, "cuOccupancyMaxActiveBlocksPerMultiprocessor"),
    SYM(memset_d32_async, "cuMemsetD32Async"),
    /* which GPU of a node this is (CUDA 11.4 named the UUID's call _v2; older drivers have the
     * first one only) */
    SYM(device_get_uuid_v2, "cuDeviceGetUuid_v2"),
    SYM(device_get_uuid, "cuDeviceGetUuid"),
    SYM(device_get_pci_bus_id, "cuDeviceGetPCIBusId"),
#undef SYM
};

/* Our own names: the stub library answers every call, cuGetErrorName too, with 34. */
static const struct {
    int code;
    const char *name;
    const char *text;
} cuda_errors[] = {
    { 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
    { 2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
    { 3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error" },
    { 34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library" },
    { 35, "CUDA_ERROR_INSUFFICIENT_DRIVER", "CUDA driver version is insufficient" },
    { 46, "CUDA_ERROR_DEVICES_UNAVAILABLE", "all CUDA-capable devices are busy or unavailable" },
    { 100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
    { 200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid" },
    { 201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context" },
    { 209, "CUDA_ERROR_NO_BINARY_FOR_GPU",
      "no kernel image is available for execution on the device" },
    { 218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed" },
    { 222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
      "the provided PTX was compiled with an unsupported toolchain" },
    { 400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle" },
    { 500, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
    { 600, "CUDA_ERROR_NOT_READY", "device not ready" },
    { 700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered" },
    { 701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch" },
    { 702, "CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated" },
    { 709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "context is destroyed" },
    { 710, "CUDA_ERROR_ASSERT", "device-side assert triggered" },
    { 714, "CUDA_ERROR_HARDWARE_STACK_ERROR", "hardware stack error" },
    { 715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered" },
    { 716, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address" },
    { 717, "CUDA_ERROR_INVALID_ADDRESS_SPACE", "invalid address space" },
    { 718, "CUDA_ERROR_INVALID_PC", "invalid program counter" },
    { 719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure" },
    { 999, "CUDA_ERROR_UNKNOWN", "unknown error" },
};

typedef struct allocation {
    CUdeviceptr ptr;
    struct allocation *next;
} allocation;

struct lab_module {
    lab_dev *dev;
    CUmodule mod;
    struct lab_module *next;
};

struct lab_timer {
    lab_dev *dev;
    CUevent start, stop;
    struct lab_timer *next;
};

struct lab_dev {
    void *lib;
    cuda_api api;
    CUdevice device;
    CUcontext ctx;
    allocation *allocations;
    lab_module *modules;
    lab_timer *timers;
    lab_dev_error last;
};

static void
describe(const cuda_api *api, CUresult rc, const char **name, const char **text)
{
    *name = NULL;
    *text = NULL;
    for (size_t i = 0; i < ARRAY_SIZE(cuda_errors); i++)
        if (cuda_errors[i].code == (int)rc) {
            *name = cuda_errors[i].name;
            *text = cuda_errors[i].text;
        }
    if (api && api->get_error_name && !*name && api->get_error_name(rc, name) != CUDA_SUCCESS)
        *name = NULL;
    if (api && api->get_error_string && !*text && api->get_error_string(rc, text) != CUDA_SUCCESS)
        *text = NULL;
    if (!*name)
        *name = "CUDA_ERROR";
    if (!*text)
        *text = "unrecognised error";
}

/* Record rc as the device's last error and fill err:
 * "cuCtxSynchronize (common/dev-cuda.c:420): CUDA_ERROR_X (700): text". */
static int
fail_at(lab_dev *dev, CUresult rc, lab_err *err, const char *what, const char *file, int line)
{
    const char *name, *text;

    describe(dev ? &dev->api : NULL, rc, &name, &text);
    if (dev) {
        dev->last.code = (int)rc;
        snprintf(dev->last.name, sizeof(dev->last.name), "%s", name);
    }
    if (!file)
        return lab_err_set(err, LAB_EDEVICE, "%s: %s (%d): %s", what, name, (int)rc, text);
    return lab_err_set(err, LAB_EDEVICE, "%s (%s:%d): %s (%d): %s", what, file, line, name, (int)rc,
                       text);
}

/* Evaluates one driver-API call; on failure names the call, file and line. */
#define CALL(dev, expr, err, what)                                                                 \
    ((rc_ = (expr)) == CUDA_SUCCESS ? 0 : fail_at((dev), rc_, (err), (what), __FILE__, __LINE__))

static int
load_library(lab_dev *dev, lab_err *err)
{
    dev->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!dev->lib)
        return lab_err_set_msg(err, LAB_ENODEV, "no NVIDIA driver: %s", dlerror());
    for (size_t i = 0; i < ARRAY_SIZE(api_symbols); i++) {
        void *fn = dlsym(dev->lib, api_symbols[i].symbol);
        if (!fn)
            return lab_err_set_msg(err, LAB_ENODEV,
                                   "the NVIDIA driver library lacks '%s': driver too old",
                                   api_symbols[i].symbol);
        memcpy((char *)&dev->api + api_symbols[i].offset, &fn, sizeof(fn));
    }
    /* only the occupancy exercise needs these: missing, it fails alone (cuda_occupancy) */
    for (size_t i = 0; i < ARRAY_SIZE(optional_symbols); i++) {
        void *fn = dlsym(dev->lib, optional_symbols[i].symbol);
        memcpy((char *)&dev->api + optional_symbols[i].offset, &fn, sizeof(fn));
    }
    return 0;
}

/* Why cuInit or cuDeviceGet failed, in the words a learner can act on. */
static int
no_device(lab_dev *dev, CUresult rc, lab_err *err)
{
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    int version = 0;

    fail_at(dev, rc, err, "cuInit", NULL, 0);
    switch ((int)rc) {
    case 34:
        return lab_err_set_msg(err, LAB_ENODEV,
                               "the CUDA stub library was loaded instead of the NVIDIA driver");
    case 35:
        dev->api.driver_get_version(&version);
        return lab_err_set_msg(err, LAB_ENODEV,
                               "the NVIDIA driver (CUDA %d.%d) is too old for this CUDA toolkit",
                               version / 1000, version % 1000 / 10);
    case 100:
        if (visible)
            return lab_err_set_msg(err, LAB_ENODEV,
                                   "no CUDA-capable device is visible (CUDA_VISIBLE_DEVICES=%s)",
                                   visible);
        return lab_err_set_msg(err, LAB_ENODEV, "no CUDA-capable device is visible");
    case 46:
        return lab_err_set_msg(err, LAB_ENODEV, "the GPU is busy or unavailable (exclusive mode)");
    default:
        err->code = LAB_ENODEV;
        return LAB_ENODEV;
    }
}

static void cuda_close(lab_dev *dev);

static int
cuda_open(int ordinal, lab_dev **out, lab_err *err)
{
    lab_dev *dev = calloc(1, sizeof(*dev));
    CUresult rc_;
    int count = 0, rc;

    *out = NULL;
    if (!dev)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if ((rc = load_library(dev, err)) < 0)
        goto out;
    if ((rc_ = dev->api.init(0)) != CUDA_SUCCESS) {
        rc = no_device(dev, rc_, err);
        goto out;
    }
    if ((rc = CALL(dev, dev->api.device_get_count(&count), err, "cuDeviceGetCount")) < 0)
        goto out;
    if (ordinal < 0 || ordinal >= count) {
        rc = lab_err_set_msg(err, LAB_ENODEV, "no GPU number %d (%d visible)", ordinal, count);
        goto out;
    }
    if ((rc = CALL(dev, dev->api.device_get(&dev->device, ordinal), err, "cuDeviceGet")) < 0 ||
        (rc = CALL(dev, dev->api.primary_ctx_retain(&dev->ctx, dev->device), err,
                   "cuDevicePrimaryCtxRetain")) < 0)
        goto out;
    if ((rc = CALL(dev, dev->api.ctx_set_current(dev->ctx), err, "cuCtxSetCurrent")) < 0)
        goto out;
    *out = dev;
    dev = NULL;
out:
    if (dev)
        cuda_close(dev);
    return rc;
}

static int
attribute(lab_dev *dev, CUdevice_attribute a)
{
    int v = 0;

    if (dev->api.device_get_attribute(&v, a, dev->device) != CUDA_SUCCESS)
        return 0;
    return v;
}

/* The device's UUID as nvidia-smi writes it ("GPU-" and the 16 bytes in hex, grouped 4-2-2-2-6)
 * and its PCI bus id; "" for what the driver cannot tell. */
static void
identify(const cuda_api *api, CUdevice d, char *uuid, size_t uuid_size, char *bus, int bus_size)
{
    CUuuid u;
    const unsigned char *b = (const unsigned char *)u.bytes;
    CUresult rc = CUDA_ERROR_NOT_SUPPORTED;

    *uuid = '\0';
    *bus = '\0';
    if (api->device_get_uuid_v2)
        rc = api->device_get_uuid_v2(&u, d);
    else if (api->device_get_uuid)
        rc = api->device_get_uuid(&u, d);
    if (rc == CUDA_SUCCESS)
        snprintf(uuid, uuid_size,
                 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                 b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                 b[14], b[15]);
    if (api->device_get_pci_bus_id && api->device_get_pci_bus_id(bus, bus_size, d) != CUDA_SUCCESS)
        *bus = '\0';
}

static int
cuda_info(lab_dev *dev, lab_dev_info *out, lab_err *err)
{
    CUresult rc_;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = CALL(dev, dev->api.device_get_name(out->name, (int)sizeof(out->name), dev->device),
                   err, "cuDeviceGetName")) < 0 ||
        (rc = CALL(dev, dev->api.device_total_mem(&out->total_mem, dev->device), err,
                   "cuDeviceTotalMem")) < 0)
        return rc;
    dev->api.driver_get_version(&out->driver_version);
    identify(&dev->api, dev->device, out->uuid, sizeof(out->uuid), out->pci_bus_id,
             (int)sizeof(out->pci_bus_id));
    out->cc_major = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    out->cc_minor = attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    out->sm_count = attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    out->max_threads_per_block = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    out->max_threads_per_sm = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    out->warp_size = attribute(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    out->regs_per_sm = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    out->regs_per_block = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    out->max_blocks_per_sm = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    out->smem_per_block = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    out->smem_per_block_optin =
        attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    out->smem_reserved_per_block =
        attribute(dev, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
    out->const_mem = attribute(dev, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
    for (int i = 0; i < 3; i++) {
        out->max_block_dim[i] =
            attribute(dev, (CUdevice_attribute)(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i));
        out->max_grid_dim[i] =
            attribute(dev, (CUdevice_attribute)(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i));
    }
    out->smem_per_sm = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    out->l2_bytes = attribute(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    out->mem_clock_khz = attribute(dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    out->bus_width_bits = attribute(dev, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    out->sm_clock_khz = attribute(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    /* double data rate: 2 transfers per memory clock, bus width in bytes */
    out->peak_gbps = 2.0 * out->mem_clock_khz * 1e3 * (out->bus_width_bits / 8.0) / 1e9;
    return 0;
}

static int
cuda_alloc(lab_dev *dev, size_t bytes, lab_dptr *out, lab_err *err)
{
    allocation *a = calloc(1, sizeof(*a));
    CUresult rc_;
    int rc;

    if (!a)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if ((rc = CALL(dev, dev->api.mem_alloc(&a->ptr, bytes ? bytes : 1), err, "cuMemAlloc")) < 0) {
        free(a);
        return rc;
    }
    a->next = dev->allocations;
    dev->allocations = a;
    *out = a->ptr;
    return 0;
}

static int
cuda_copy_in(lab_dev *dev, lab_dptr dst, const void *src, size_t bytes, lab_err *err)
{
    CUresult rc_;

    return CALL(dev, dev->api.memcpy_htod(dst, src, bytes), err, "cuMemcpyHtoD");
}

static int
cuda_copy_out(lab_dev *dev, void *dst, lab_dptr src, size_t bytes, lab_err *err)
{
    CUresult rc_;

    return CALL(dev, dev->api.memcpy_dtoh(dst, src, bytes), err, "cuMemcpyDtoH");
}

static int
cuda_copy_dtod(lab_dev *dev, lab_dptr dst, lab_dptr src, size_t bytes, lab_err *err)
{
    CUresult rc_;

    return CALL(dev, dev->api.memcpy_dtod_async(dst, src, bytes, NULL), err, "cuMemcpyDtoDAsync");
}

/* Stream-ordered like the copies; a driver without cuMemsetD32Async (the test stub) fills
 * through copies (lab_dev_fill32). */
static int
cuda_fill32(lab_dev *dev, lab_dptr dst, uint32_t value, size_t count, lab_err *err)
{
    CUresult rc_;

    if (!dev->api.memset_d32_async)
        return LAB_ENOSYS;
    return CALL(dev, dev->api.memset_d32_async(dst, value, count, NULL), err, "cuMemsetD32Async");
}

static int
cuda_load(lab_dev *dev, const lab_image *img, lab_module **out, lab_err *err)
{
    char log[4096] = "";
    CUjit_option opts[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *vals[] = { log, (void *)(uintptr_t)sizeof(log) };
    lab_module *m = calloc(1, sizeof(*m));
    CUresult rc_;

    if (!m)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    rc_ = dev->api.module_load_data_ex(&m->mod, img->data, ARRAY_SIZE(opts), opts, vals);
    if (rc_ != CUDA_SUCCESS) {
        free(m);
        fail_at(dev, rc_, err, "cannot load module", NULL, 0);
        for (char *p = log; *p; p++)
            if (*p == '\n')
                *p = ' ';
        return lab_err_set(err, LAB_EDEVICE, "cannot load '%s': %s (%d)%s%s", img->path,
                           dev->last.name, (int)rc_, *log ? ": " : "", log);
    }
    m->dev = dev;
    m->next = dev->modules;
    dev->modules = m;
    *out = m;
    return 0;
}

static bool
cuda_has_kernel(lab_module *m, const char *kernel)
{
    CUfunction f;

    return m->dev->api.module_get_function(&f, m->mod, kernel) == CUDA_SUCCESS;
}

static int
cuda_symbol(lab_module *m, const char *name, lab_dptr *out, size_t *bytes, lab_err *err)
{
    CUdeviceptr ptr = 0;
    CUresult rc_;
    size_t size = 0;
    int rc;

    if ((rc = CALL(m->dev, m->dev->api.module_get_global(&ptr, &size, m->mod, name), err,
                   "cuModuleGetGlobal")) < 0)
        return lab_err_wrap(err, "device variable '%s'", name);
    *out = ptr;
    if (bytes)
        *bytes = size;
    return 0;
}

static int
cuda_launch(lab_module *m, const char *kernel, lab_dim3 grid, lab_dim3 block, unsigned shared_bytes,
            void **args, lab_err *err)
{
    lab_dev *dev = m->dev;
    CUfunction f;
    CUresult rc_;
    int rc;

    if ((rc = CALL(dev, dev->api.module_get_function(&f, m->mod, kernel), err,
                   "cuModuleGetFunction")) < 0)
        return lab_err_wrap(err, "kernel '%s'", kernel);
    return CALL(dev,
                dev->api.launch_kernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                       shared_bytes, NULL, args, NULL),
                err, "cuLaunchKernel");
}

static int
cuda_sync(lab_dev *dev, lab_err *err)
{
    CUresult rc_;

    return CALL(dev, dev->api.ctx_synchronize(), err, "cuCtxSynchronize");
}

/* cuCtxSetLimit is looked up here, not with the table: only dynamic-parallelism drivers need it. */
static int
cuda_set_pending_launches(lab_dev *dev, size_t count, lab_err *err)
{
    CUresult (*set_limit)(CUlimit, size_t);
    void *fn = dlsym(dev->lib, "cuCtxSetLimit");
    CUresult rc_;

    if (!fn)
        return lab_err_set(err, LAB_ENODEV, "the NVIDIA driver library lacks 'cuCtxSetLimit'");
    memcpy(&set_limit, &fn, sizeof(fn));
    return CALL(dev, set_limit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, count), err,
                "cuCtxSetLimit");
}

static int
cuda_timer_new(lab_dev *dev, lab_timer **out, lab_err *err)
{
    lab_timer *t = calloc(1, sizeof(*t));
    CUresult rc_;
    int rc;

    if (!t)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    t->dev = dev;
    if ((rc = CALL(dev, dev->api.event_create(&t->start, CU_EVENT_DEFAULT), err, "cuEventCreate")) <
        0) {
        free(t);
        return rc;
    }
    if ((rc = CALL(dev, dev->api.event_create(&t->stop, CU_EVENT_DEFAULT), err, "cuEventCreate")) <
        0) {
        dev->api.event_destroy(t->start);
        free(t);
        return rc;
    }
    t->next = dev->timers;
    dev->timers = t;
    *out = t;
    return 0;
}

static int
cuda_timer_start(lab_timer *t, lab_err *err)
{
    CUresult rc_;

    return CALL(t->dev, t->dev->api.event_record(t->start, NULL), err, "cuEventRecord");
}

static int
cuda_timer_stop(lab_timer *t, lab_err *err)
{
    CUresult rc_;

    return CALL(t->dev, t->dev->api.event_record(t->stop, NULL), err, "cuEventRecord");
}

static int
cuda_elapsed(lab_timer *t, double *ms, lab_err *err)
{
    float f = 0;
    CUresult rc_;
    int rc;

    if ((rc = CALL(t->dev, t->dev->api.event_elapsed_time(&f, t->start, t->stop), err,
                   "cuEventElapsedTime")) < 0)
        return rc;
    *ms = f;
    return 0;
}

static const lab_dev_error *
cuda_last_error(lab_dev *dev)
{
    return &dev->last;
}

static void
cuda_close(lab_dev *dev)
{
    if (!dev)
        return;
    while (dev->timers) {
        lab_timer *t = dev->timers;
        dev->timers = t->next;
        dev->api.event_destroy(t->start);
        dev->api.event_destroy(t->stop);
        free(t);
    }
    while (dev->modules) {
        lab_module *m = dev->modules;
        dev->modules = m->next;
        dev->api.module_unload(m->mod);
        free(m);
    }
    while (dev->allocations) {
        allocation *a = dev->allocations;
        dev->allocations = a->next;
        dev->api.mem_free(a->ptr);
        free(a);
    }
    if (dev->ctx)
        dev->api.primary_ctx_release(dev->device);
    if (dev->lib)
        dlclose(dev->lib);
    free(dev);
}

static int
cuda_occupancy(lab_module *m, const char *kernel, unsigned block, size_t dyn_smem,
               lab_occupancy *out, lab_err *err)
{
    lab_dev *dev = m->dev;
    CUfunction f;
    CUresult rc_;
    int rc;

    if (!dev->api.func_get_attribute || !dev->api.occupancy_max_active_blocks)
        return lab_err_set(err, LAB_ENOSYS,
                           "the NVIDIA driver library lacks the occupancy calls: driver too old");
    if ((rc = CALL(dev, dev->api.module_get_function(&f, m->mod, kernel), err,
                   "cuModuleGetFunction")) < 0)
        return lab_err_wrap(err, "kernel '%s'", kernel);
    if ((rc = CALL(dev, dev->api.func_get_attribute(&out->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f), err,
                   "cuFuncGetAttribute")) < 0 ||
        (rc = CALL(
             dev,
             dev->api.func_get_attribute(&out->static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f),
             err, "cuFuncGetAttribute")) < 0)
        return rc;
    return CALL(dev,
                dev->api.occupancy_max_active_blocks(&out->blocks_per_sm, f, (int)block, dyn_smem),
                err, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
}

static int
cuda_devices(lab_dev *dev, lab_dev_ident *out, int max, int *n, lab_err *err)
{
    CUresult rc_;
    int count = 0, rc;

    *n = 0;
    if ((rc = CALL(dev, dev->api.device_get_count(&count), err, "cuDeviceGetCount")) < 0)
        return rc;
    for (int i = 0; i < count && *n < max; i++) {
        lab_dev_ident *id = &out[*n];
        CUdevice d;

        memset(id, 0, sizeof(*id));
        if ((rc = CALL(dev, dev->api.device_get(&d, i), err, "cuDeviceGet")) < 0 ||
            (rc = CALL(dev, dev->api.device_get_name(id->name, (int)sizeof(id->name), d), err,
                       "cuDeviceGetName")) < 0)
            return rc;
        id->ordinal = i;
        identify(&dev->api, d, id->uuid, sizeof(id->uuid), id->pci_bus_id,
                 (int)sizeof(id->pci_bus_id));
        (*n)++;
    }
    return 0;
}

const lab_dev_ops lab_dev_cuda = {
    .name = "cuda",
    .open = cuda_open,
    .info = cuda_info,
    .alloc = cuda_alloc,
    .copy_in = cuda_copy_in,
    .copy_out = cuda_copy_out,
    .copy_dtod = cuda_copy_dtod,
    .fill32 = cuda_fill32,
    .load = cuda_load,
    .has_kernel = cuda_has_kernel,
    .symbol = cuda_symbol,
    .launch = cuda_launch,
    .sync = cuda_sync,
    .timer_new = cuda_timer_new,
    .timer_start = cuda_timer_start,
    .timer_stop = cuda_timer_stop,
    .elapsed = cuda_elapsed,
    .last_error = cuda_last_error,
    .set_pending_launches = cuda_set_pending_launches,
    .occupancy = cuda_occupancy,
    .devices = cuda_devices,
    .close = cuda_close,
};
